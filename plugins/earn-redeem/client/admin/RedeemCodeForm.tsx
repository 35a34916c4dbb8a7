// The create and edit form of a redeem code: the code, the coins it gives, how many redemptions it
// allows in total, whether it is on, and an optional expiry in the administrator's own time zone.
import { Alert, Button, Card, Checkbox, Form, Grid, TextField, useTranslation } from '@orepanel/sdk';
import { useState } from 'react';
import { REDEEM_CODE_LIMITS } from '../../shared/code-rules';
import { checkCodeForm, codeBody, EMPTY_CODE_FORM, type CodeBody, type CodeFormProblems, type CodeFormValues } from './code-form';

export interface RedeemCodeFormProps {
  /** the code being edited; null for a new one */
  initial: CodeFormValues | null;
  /** how many times it was redeemed already (editing: uses may not go below it) */
  redeemed?: number;
  /** sends the changed fields (all of them for a new code) */
  onSubmit(body: CodeBody): Promise<void>;
  submitText: string;
}

export function RedeemCodeForm({ initial, redeemed = 0, onSubmit, submitText }: RedeemCodeFormProps) {
  const { t } = useTranslation('earn-redeem');
  const [values, setValues] = useState<CodeFormValues>(initial ?? EMPTY_CODE_FORM);
  const [problems, setProblems] = useState<CodeFormProblems>({});
  const [unchanged, setUnchanged] = useState(false);

  const set =
    <K extends keyof CodeFormValues>(field: K) =>
    (value: CodeFormValues[K]) => {
      setValues((v) => ({ ...v, [field]: value }));
      setProblems((p) => ({ ...p, [field]: undefined }));
      setUnchanged(false);
    };
  const problem = (field: keyof CodeFormValues) => (problems[field] ? t(problems[field]!) : undefined);

  async function submit() {
    const found = checkCodeForm(values, new Date(), initial?.expires ?? null);
    if (!found.uses && initial && Number(values.uses) < redeemed) found.uses = 'validation.usesBelowRedeemed';
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    const body = codeBody(initial, values);
    if (Object.keys(body).length === 0) {
      setUnchanged(true);
      return;
    }
    await onSubmit(body);
  }

  return (
    <Card>
      <Form onSubmit={submit} aria-label={submitText} noValidate>
        {unchanged && (
          <Alert tone="info" onClose={() => setUnchanged(false)}>
            {t('manage.form.nothingChanged')}
          </Alert>
        )}
        <TextField
          label={t('manage.form.code')}
          name="code"
          value={values.code}
          onChange={set('code')}
          error={problem('code')}
          hint={t('manage.form.codeHint')}
          maxLength={REDEEM_CODE_LIMITS.codeMaxLength}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
        />
        <Grid min={200} gap={16} css={{ alignItems: 'start' }}>
          <TextField
            label={t('manage.form.coins')}
            name="coins"
            type="number"
            inputMode="numeric"
            min={1}
            max={REDEEM_CODE_LIMITS.maxCoins}
            step={1}
            value={values.coins}
            onChange={set('coins')}
            error={problem('coins')}
          />
          <TextField
            label={t('manage.form.uses')}
            name="uses"
            type="number"
            inputMode="numeric"
            min={Math.max(1, redeemed)}
            max={REDEEM_CODE_LIMITS.maxUses}
            step={1}
            value={values.uses}
            onChange={set('uses')}
            error={problem('uses')}
            hint={initial ? t('manage.form.usesHintRedeemed', { redeemed }) : t('manage.form.usesHint')}
          />
          <TextField
            label={t('manage.form.expires')}
            name="expires_at"
            type="datetime-local"
            value={values.expires}
            onChange={set('expires')}
            error={problem('expires')}
            hint={t('manage.form.expiresHint')}
          />
        </Grid>
        <Checkbox label={t('manage.form.enabled')} name="enabled" checked={values.enabled} onChange={set('enabled')} hint={t('manage.form.enabledHint')} />
        <div>
          <Button type="submit">{submitText}</Button>
        </div>
      </Form>
    </Card>
  );
}
