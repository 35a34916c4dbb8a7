// /mc-admin/redeem-codes/:id/edit: change any field; the uses may not drop below the redemptions
// already made (the server compares in the same statement that saves).
import { Button, dialogs, http, Page, PermissionGate, ResourceState, useApi, useParams, useTranslation } from '@orepanel/sdk';
import { useState } from 'react';
import { adminPath, adminUrl, PERMISSIONS, type RedeemCode } from '../api';
import { formValuesOf } from './code-form';
import { RedeemCodeForm } from './RedeemCodeForm';

export default function RedeemCodeEditPage() {
  const { t } = useTranslation('earn-redeem');
  const { id = '' } = useParams();
  const loaded = useApi<{ code: RedeemCode }>(adminUrl.code(id));
  const [saved, setSaved] = useState<RedeemCode | null>(null);
  const code = saved ?? loaded.data?.code;
  return (
    <Page
      title={code ? t('manage.form.editTitle', { code: code.code }) : t('manage.titles.edit')}
      actions={
        <>
          <Button variant="secondary" to={adminPath.codes}>
            {t('manage.back')}
          </Button>
          {code && (
            <PermissionGate permission={PERMISSIONS.delete}>
              <Button variant="ghost" to={adminPath.delete(code.id)}>
                {t('manage.delete')}
              </Button>
            </PermissionGate>
          )}
        </>
      }
    >
      <ResourceState data={code} loading={loaded.loading} error={loaded.error} reload={loaded.reload} errorTitle={t('manage.loadFailed')} lines={5}>
        {(current) => (
          <RedeemCodeForm
            key={current.updated_at}
            initial={formValuesOf(current)}
            redeemed={current.redeemed}
            submitText={t('manage.form.save')}
            onSubmit={async (body) => {
              const answer = await http.patch<{ code: RedeemCode }>(adminUrl.code(current.id), body);
              setSaved(answer.code);
              void dialogs.toast(t('manage.form.saved', { code: answer.code.code }));
            }}
          />
        )}
      </ResourceState>
    </Page>
  );
}
