// The balance, and an adjustment with a reason: through the wallet ledger like every other movement
// (PATCHing the account refuses coins). One idempotency key per submission, so a double click or a
// retried request adjusts once.
import { Button, Card, dialogs, Form, http, Icon, TextArea, TextField, theme, useTranslation } from '@orepanel/sdk';
import { useState } from 'react';
import { usersUrl } from './users-api';

const MAX_REASON = 255;
const MAX_AMOUNT = 1_000_000_000;

function submissionKey(): string {
  return crypto.randomUUID().replace(/-/g, '');
}

export interface CoinsCardProps {
  uuid: string;
  coins: number;
  /** false: the balance only (no admin.users.edit) */
  editable: boolean;
  onAdjusted(balance: number): void;
}

export function CoinsCard({ uuid, coins, editable, onAdjusted }: CoinsCardProps) {
  const { t } = useTranslation('admin-users');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [key, setKey] = useState(submissionKey);
  const [problems, setProblems] = useState<{ amount?: string; reason?: string }>({});

  async function adjust() {
    const value = Number(amount.trim());
    const text = reason.trim();
    const found: { amount?: string; reason?: string } = {};
    if (amount.trim() === '' || !Number.isInteger(value) || value === 0 || Math.abs(value) > MAX_AMOUNT) found.amount = t('userEdit.coins.amountInvalid');
    if (text.length < 3) found.reason = t('validation.required');
    else if (text.length > MAX_REASON) found.reason = t('validation.tooLong');
    setProblems(found);
    if (found.amount || found.reason) return;
    const answer = await http.post<{ balance: number }>(usersUrl.userCoins(uuid), { amount: value, reason: text, idempotency_key: key });
    setAmount('');
    setReason('');
    setKey(submissionKey());
    onAdjusted(answer.balance);
    void dialogs.toast(t('userEdit.coins.adjusted', { value: answer.balance }));
  }

  return (
    <Card title={t('userEdit.coins.title')}>
      <div css={{ display: 'flex', alignItems: 'center', gap: 12 }}>
        <span css={{ display: 'inline-flex', padding: 10, borderRadius: theme.radii.md, background: theme.colors.primarySoft, color: theme.colors.primaryHover }}>
          <Icon name="coins" size={22} />
        </span>
        <div>
          <div css={{ color: theme.colors.muted, fontSize: theme.font.size.sm }}>{t('userEdit.coins.balance')}</div>
          <div data-testid="coins-balance" css={{ fontSize: theme.font.size.xl, fontWeight: theme.font.weight.bold, fontVariantNumeric: 'tabular-nums' }}>
            {t('common.count', { value: coins })}
          </div>
        </div>
      </div>
      {editable ? (
        <Form onSubmit={adjust} aria-label={t('userEdit.coins.adjust')} noValidate css={{ marginTop: 16 }}>
          <TextField
            label={t('userEdit.coins.amount')}
            name="amount"
            type="number"
            inputMode="numeric"
            step={1}
            value={amount}
            onChange={setAmount}
            error={problems.amount}
            hint={t('userEdit.coins.amountHint')}
          />
          <TextArea label={t('userEdit.coins.reason')} name="reason" value={reason} onChange={setReason} error={problems.reason} maxLength={MAX_REASON} rows={2} />
          <div>
            <Button type="submit">{t('userEdit.coins.adjust')}</Button>
          </div>
        </Form>
      ) : (
        <p css={{ margin: '12px 0 0', color: theme.colors.muted, fontSize: theme.font.size.sm }}>{t('userEdit.coins.note')}</p>
      )}
    </Card>
  );
}
