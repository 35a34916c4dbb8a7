// The create and edit form of a redeem code: the code, the coins it gives, how many redemptions it
// allows in total, whether it is on, and an optional expiry in the administrator's own time zone.
import { Button, Card, Checkbox, Form, Grid, TextField, UnchangedNote, useEditForm, useTranslation } from '@orepanel/sdk';
import { REDEEM_CODE_LIMITS } from '../../shared/code-rules';
import { checkCodeForm, codeBody, EMPTY_CODE_FORM, type CodeBody, type CodeFormValues } from './code-form';

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
  const form = useEditForm({
    initial: initial ?? EMPTY_CODE_FORM,
    check: (values: CodeFormValues) => {
      const found = checkCodeForm(values, new Date(), initial?.expires ?? null);
      if (!found.uses && initial && Number(values.uses) < redeemed) found.uses = 'validation.usesBelowRedeemed';
      return found;
    },
    changes: (values: CodeFormValues) => codeBody(initial, values),
    submit: onSubmit,
    problemText: (problem) => t(problem),
  });
  const { values, set, problem } = form;

  return (
    <Card>
      <Form onSubmit={form.submit} aria-label={submitText} noValidate>
        <UnchangedNote form={form}>{t('manage.form.nothingChanged')}</UnchangedNote>
        <TextField
          label={t('manage.form.code')}
          {...form.field('code')}
          hint={t('manage.form.codeHint')}
          maxLength={REDEEM_CODE_LIMITS.codeMaxLength}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
        />
        <Grid min={200} gap={16} css={{ alignItems: 'start' }}>
          <TextField label={t('manage.form.coins')} {...form.field('coins')} type="number" inputMode="numeric" min={1} max={REDEEM_CODE_LIMITS.maxCoins} step={1} />
          <TextField
            label={t('manage.form.uses')}
            {...form.field('uses')}
            type="number"
            inputMode="numeric"
            min={Math.max(1, redeemed)}
            max={REDEEM_CODE_LIMITS.maxUses}
            step={1}
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
