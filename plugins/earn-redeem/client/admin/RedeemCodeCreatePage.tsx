// /mc-admin/redeem-codes/create: a new code; then back to the list, where it shows first.
import { Button, dialogs, http, Page, useNavigate, useTranslation } from '@orepanel/sdk';
import { adminPath, adminUrl, type RedeemCode } from '../api';
import { RedeemCodeForm } from './RedeemCodeForm';

export default function RedeemCodeCreatePage() {
  const { t } = useTranslation('earn-redeem');
  const navigate = useNavigate();
  return (
    <Page
      title={t('manage.titles.create')}
      actions={
        <Button variant="secondary" to={adminPath.codes}>
          {t('manage.back')}
        </Button>
      }
    >
      <RedeemCodeForm
        initial={null}
        submitText={t('manage.form.create')}
        onSubmit={async (body) => {
          const { code } = await http.post<{ code: RedeemCode }>(adminUrl.codes(), body);
          void dialogs.toast(t('manage.form.created', { code: code.code }));
          navigate(adminPath.codes, { replace: true });
        }}
      />
    </Page>
  );
}
