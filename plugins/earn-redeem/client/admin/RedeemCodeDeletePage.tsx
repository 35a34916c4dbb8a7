// /mc-admin/redeem-codes/:id/delete: asks first. The coins already paid stay with the users (the
// ledger keeps them); the code and its redemption records go.
import { Button, ConfirmPanel, dialogs, http, Page, ResourceState, useApi, useNavigate, useParams, useTranslation } from '@orepanel/sdk';
import { adminPath, adminUrl, type RedeemCode } from '../api';

export default function RedeemCodeDeletePage() {
  const { t } = useTranslation('earn-redeem');
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const loaded = useApi<{ code: RedeemCode }>(adminUrl.code(id));
  return (
    <Page
      title={t('manage.titles.delete')}
      actions={
        <Button variant="secondary" to={adminPath.codes}>
          {t('manage.back')}
        </Button>
      }
    >
      <ResourceState data={loaded.data?.code} loading={loaded.loading} error={loaded.error} reload={loaded.reload} errorTitle={t('manage.loadFailed')} lines={3}>
        {(code) => (
          <ConfirmPanel
            title={t('manage.deleteQuestion', { code: code.code })}
            confirmText={t('manage.deleteConfirm')}
            cancelTo={adminPath.codes}
            onConfirm={async () => {
              await http.delete(adminUrl.code(code.id));
              void dialogs.toast(t('manage.deleted', { code: code.code }));
              navigate(adminPath.codes, { replace: true });
            }}
          >
            <p css={{ margin: 0 }}>{t('manage.deleteExplain', { redeemed: code.redeemed, uses: code.uses })}</p>
          </ConfirmPanel>
        )}
      </ResourceState>
    </Page>
  );
}
