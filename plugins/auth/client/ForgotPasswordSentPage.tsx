// /auth/forgot-password/sent: where the forgot-password form leads once the address was taken — from
// the page's script, or from the form posted before (or without) it (plugin.json `prerender.form`
// relays it to POST /api/user/auth/forgot and sends the browser here). The same words whether or not
// an account uses the address: nothing reveals who has an account.
import { Alert, AuthLayout, useTranslation } from '@orepanel/sdk';
import { ForgotPasswordFooter } from './ForgotPasswordFooter';

export default function ForgotPasswordSentPage() {
  const { t } = useTranslation('auth');
  return (
    <AuthLayout title={t('forgot.heading')} footer={<ForgotPasswordFooter />}>
      <Alert tone="success">{t('forgot.sent')}</Alert>
    </AuthLayout>
  );
}
