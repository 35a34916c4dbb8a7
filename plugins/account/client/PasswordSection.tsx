// Password change: the current password (a stolen cookie alone must not be enough), the new one
// twice → POST /api/user/session/password/change. The server ends every other session.
import { ACCOUNT_RULES, Alert, Button, Card, Form, http, PasswordField, useTranslation, type FormValues } from '@orepanel/sdk';
import { useState, type FormEvent } from 'react';

export const PASSWORD_API = '/api/user/session/password/change';

type PasswordInput = 'current_password' | 'new_password' | 'new_password_confirm';
type Problems = Partial<Record<PasswordInput, string>>;

/** i18n keys of what is wrong with the three inputs (the server checks again). */
export function checkPasswordChange(values: FormValues): Problems {
  const problems: Problems = {};
  const current = values.current_password ?? '';
  const next = values.new_password ?? '';
  const confirm = values.new_password_confirm ?? '';
  if (current === '') problems.current_password = 'validation.required';
  if (next === '') problems.new_password = 'validation.required';
  else if (next.length < ACCOUNT_RULES.password.minLength) problems.new_password = 'validation.passwordLength';
  else if (next.length > ACCOUNT_RULES.password.maxLength) problems.new_password = 'validation.passwordTooLong';
  if (confirm === '') problems.new_password_confirm = 'validation.required';
  else if (confirm !== next) problems.new_password_confirm = 'validation.passwordMismatch';
  return problems;
}

const ORDER: readonly PasswordInput[] = ['current_password', 'new_password', 'new_password_confirm'];

export function PasswordSection() {
  const { t } = useTranslation('account');
  const [problems, setProblems] = useState<Problems>({});
  const [done, setDone] = useState(false);
  // a new key empties the form after a change
  const [formKey, setFormKey] = useState(0);

  async function change(values: FormValues, event: FormEvent<HTMLFormElement>) {
    setDone(false);
    const found = checkPasswordChange(values);
    setProblems(found);
    const first = ORDER.find((name) => found[name]);
    if (first) {
      const input = event.currentTarget.elements.namedItem(first);
      if (input instanceof HTMLElement) input.focus();
      return;
    }
    await http.post(PASSWORD_API, { current_password: values.current_password, new_password: values.new_password });
    setFormKey((k) => k + 1);
    setDone(true);
  }

  const clear = (name: PasswordInput) => () => setProblems((current) => (current[name] ? { ...current, [name]: undefined } : current));
  const error = (name: PasswordInput) => (problems[name] ? t(problems[name]) : undefined);

  return (
    <Card title={t('password.title')}>
      <div css={{ display: 'grid', gap: 16 }}>
        {done && (
          <Alert tone="success" onClose={() => setDone(false)}>
            {t('password.done')}
          </Alert>
        )}
        <Form key={formKey} onSubmit={change} noValidate aria-label={t('password.title')}>
          <PasswordField
            label={t('password.current')}
            name="current_password"
            autoComplete="current-password"
            error={error('current_password')}
            onChange={clear('current_password')}
          />
          <PasswordField
            label={t('password.new')}
            name="new_password"
            autoComplete="new-password"
            hint={t('password.hint')}
            error={error('new_password')}
            onChange={clear('new_password')}
          />
          <PasswordField
            label={t('password.confirm')}
            name="new_password_confirm"
            autoComplete="new-password"
            error={error('new_password_confirm')}
            onChange={clear('new_password_confirm')}
          />
          <div>
            <Button type="submit">{t('password.submit')}</Button>
          </div>
        </Form>
      </div>
    </Card>
  );
}
