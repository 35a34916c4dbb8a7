// Back to the login page: under the forgot-password form and under the message that follows it.
import { useTranslation } from '@orepanel/sdk';
import { AuthFooter } from './AuthFooter';

export function ForgotPasswordFooter() {
  const { t } = useTranslation('auth');
  return <AuthFooter switchTo={{ question: t('forgot.remembered'), label: t('forgot.login'), to: '/auth/login' }} />;
}
