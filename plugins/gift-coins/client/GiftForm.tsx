// The gift itself, in two steps: the amount (the fee and the total follow as you type), then a
// review to confirm. Each review is one submission with its own idempotency key: retrying the same
// confirmation (a lost answer, a double click) can never send the coins twice.
import { Alert, Button, Card, Form, http, Icon, TextField, theme, useSession, useTranslation } from '@orepanel/sdk';
import { useState } from 'react';
import { giftAmountProblem, giftFee, type GiftRules } from '../shared/gift-rules';
import { GIFT_API, submissionKey, type GiftAnswer, type GiftOptions } from './api';

type Step = { kind: 'amount' } | { kind: 'review'; amount: number; fee: number; key: string } | { kind: 'done'; answer: GiftAnswer };

/** The whole number typed, or null when the text is not one. */
function parseAmount(text: string): number | null {
  if (!/^\s*\d+\s*$/.test(text)) return null;
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : null;
}

/** One line of the cost summary: a number of coins (the coin icon names the unit, so "1" needs no plural). */
function SummaryRow({ label, coins, strong }: { label: string; coins: number; strong?: boolean }) {
  const { t } = useTranslation('gift-coins');
  return (
    <div css={{ display: 'flex', justifyContent: 'space-between', gap: 12, fontWeight: strong ? theme.font.weight.bold : undefined }}>
      <dt css={{ color: strong ? theme.colors.text : theme.colors.muted }}>{label}</dt>
      <dd css={{ margin: 0, fontVariantNumeric: 'tabular-nums', display: 'inline-flex', alignItems: 'center', gap: 6 }}>
        {t('number', { value: coins })}
        <Icon name="coins" size={16} title={t('coinsUnit')} />
      </dd>
    </div>
  );
}

export function GiftForm({ options }: { options: GiftOptions }) {
  const { t } = useTranslation('gift-coins');
  const { refresh } = useSession();
  const rules: GiftRules = { min: options.rules.min, max: options.rules.max, feePercent: options.rules.fee_percent };
  const [balance, setBalance] = useState(options.balance);
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [step, setStep] = useState<Step>({ kind: 'amount' });

  const amount = parseAmount(text);
  const fee = amount === null ? 0 : giftFee(amount, rules.feePercent);

  const amountProblem = (): string | null => {
    if (text.trim() === '') return t('validation.required');
    const found = amount === null ? 'whole' : giftAmountProblem(amount, rules);
    if (found === 'whole') return t('validation.whole');
    if (found === 'min') return t('validation.min', { min: rules.min });
    if (found === 'max') return t('validation.max', { max: rules.max });
    if (amount! + fee > balance) return t('validation.insufficient', { total: amount! + fee, balance });
    return null;
  };

  const review = () => {
    const found = amountProblem();
    setProblem(found);
    if (found || amount === null) return;
    setStep({ kind: 'review', amount, fee, key: submissionKey() });
  };

  if (step.kind === 'done') {
    const { answer } = step;
    return (
      <Card title={t('done.title')}>
        <div css={{ display: 'grid', gap: 14, justifyItems: 'start' }}>
          <Alert tone="success">{t('done.text', { amount: answer.amount, fee: answer.fee, username: answer.recipient.username, balance: answer.balance })}</Alert>
          <Button
            variant="secondary"
            onClick={() => {
              setText('');
              setStep({ kind: 'amount' });
            }}
          >
            {t('done.again')}
          </Button>
        </div>
      </Card>
    );
  }

  if (step.kind === 'review') {
    return (
      <Card title={t('review.title')}>
        <Form
          aria-label={t('review.title')}
          onSubmit={async () => {
            const answer = await http.post<GiftAnswer>(GIFT_API, { recipient: options.recipient.uuid, amount: step.amount, idempotency_key: step.key });
            setBalance(answer.balance);
            setStep({ kind: 'done', answer });
            void refresh();
          }}
        >
          <p css={{ margin: 0 }}>{t('review.question', { amount: step.amount, username: options.recipient.username })}</p>
          <dl aria-label={t('summary.label')} css={{ display: 'grid', gap: 6, margin: 0 }}>
            <SummaryRow label={t('summary.amount')} coins={step.amount} />
            <SummaryRow label={t('summary.fee', { percent: rules.feePercent })} coins={step.fee} />
            <SummaryRow label={t('summary.total')} coins={step.amount + step.fee} strong />
            <SummaryRow label={t('summary.after')} coins={balance - step.amount - step.fee} />
          </dl>
          <div css={{ display: 'flex', flexWrap: 'wrap', gap: 8 }}>
            <Button type="submit" icon="gift">
              {t('review.confirm')}
            </Button>
            <Button variant="secondary" onClick={() => setStep({ kind: 'amount' })}>
              {t('review.change')}
            </Button>
          </div>
        </Form>
      </Card>
    );
  }

  return (
    <Card title={t('form.title')}>
      <Form onSubmit={review} aria-label={t('form.title')} noValidate>
        <TextField
          label={t('form.amount')}
          name="amount"
          type="number"
          inputMode="numeric"
          min={rules.min}
          max={rules.max}
          step={1}
          value={text}
          onChange={(value) => {
            setText(value);
            setProblem(null);
          }}
          error={problem}
          hint={t('form.limits', { min: rules.min, max: rules.max, percent: rules.feePercent })}
        />
        <dl aria-live="polite" aria-label={t('summary.label')} css={{ display: 'grid', gap: 6, margin: 0 }}>
          <SummaryRow label={t('summary.fee', { percent: rules.feePercent })} coins={fee} />
          <SummaryRow label={t('summary.total')} coins={(amount ?? 0) + fee} strong />
          <SummaryRow label={t('summary.balance')} coins={balance} />
        </dl>
        <div>
          <Button type="submit">{t('form.next')}</Button>
        </div>
      </Form>
    </Card>
  );
}
