// /mc-admin/eggs/:id/edit: change any field; a new category or panel egg is checked on the panel first.
import { Button, dialogs, http, Page, PermissionGate, ResourceState, useApi, useParams, useTranslation } from '@orepanel/sdk';
import { useState } from 'react';
import { adminPath, apiUrl, PERMISSIONS, type Egg } from '../api';
import { eggValuesOf } from '../catalog-form';
import { EggForm } from './EggForm';

export default function EggEditPage() {
  const { t } = useTranslation('server-catalog');
  const { id = '' } = useParams();
  const loaded = useApi<{ egg: Egg }>(apiUrl.egg(id));
  const [saved, setSaved] = useState<Egg | null>(null);
  const egg = saved ?? loaded.data?.egg;
  return (
    <Page
      title={egg ? t('editTitle', { name: egg.name }) : t('eggs.titles.edit')}
      actions={
        <>
          <Button variant="secondary" to={adminPath.eggs.list}>
            {t('back')}
          </Button>
          {egg && (
            <PermissionGate permission={PERMISSIONS.eggs.delete}>
              <Button variant="ghost" to={adminPath.eggs.delete(egg.id)}>
                {t('delete')}
              </Button>
            </PermissionGate>
          )}
        </>
      }
    >
      <ResourceState data={egg} loading={loaded.loading} error={loaded.error} reload={loaded.reload} errorTitle={t('loadFailed')} lines={6}>
        {(current) => (
          <EggForm
            key={current.updated_at}
            editing={{ id: current.id, values: eggValuesOf(current) }}
            submitText={t('form.save')}
            onSubmit={async (body) => {
              const answer = await http.patch<{ egg: Egg }>(apiUrl.egg(current.id), body);
              setSaved(answer.egg);
              void dialogs.toast(t('saved', { name: answer.egg.name }));
            }}
          />
        )}
      </ResourceState>
    </Page>
  );
}
