// /earn/redeem: type a code, get its coins. The server decides (and counts each attempt against a
// rate limit); the page only refuses what cannot be a code at all, shows what the code gave and the
// new balance, and refreshes the session so the balance everywhere else follows.
import { Alert, Button, Card, Form, Page, Slot, StatCard, TextField, http, useSession, useTranslation } from '@orepanel/sdk';
import { useState } from 'react';
import { codeKey, REDEEM_CODE_LIMITS } from '../shared/code-rules';
import { REDEEM_API, type RedeemAnswer } from './api';

export default function RedeemPage() {
  const { t } = useTranslation('earn-redeem');
  const { billing, refresh } = useSession();
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [result, setResult] = useState<RedeemAnswer | null>(null);
  const balance = result?.balance ?? billing?.coins ?? null;

  async function submit() {
    setResult(null);
    if (codeKey(code) === null) {
      setProblem(code.trim() === '' ? t('validation.required') : t('validation.codeFormat'));
      return;
    }
    const answer = await http.post<RedeemAnswer>(REDEEM_API, { code: code.trim() });
    setResult(answer);
    setCode('');
    void refresh();
  }

  return (
    <Page title={t('title')} description={t('description')}>
      <div css={{ display: 'grid', gap: 16, gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 320px), 1fr))', alignItems: 'start' }}>
        <Card title={t('form.title')}>
          <Form onSubmit={submit} aria-label={t('form.title')} noValidate>
            {result && (
              <Alert tone="success" title={t('result.title')} onClose={() => setResult(null)}>
                {t('result.text', { coins: result.coins, code: result.code, balance: result.balance })}
              </Alert>
            )}
            <TextField
              label={t('form.code')}
              name="code"
              value={code}
              onChange={(value) => {
                setCode(value);
                setProblem(null);
              }}
              error={problem}
              hint={t('form.hint')}
              maxLength={REDEEM_CODE_LIMITS.codeMaxLength + 16}
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
            />
            <div>
              <Button type="submit" icon="gift">
                {t('form.submit')}
              </Button>
            </div>
          </Form>
        </Card>
        {balance !== null && <StatCard label={t('balance')} value={t('coinsValue', { value: balance })} icon="coins" />}
        <Slot name="earn.ads" loading={false} />
      </div>
    </Page>
  );
}
