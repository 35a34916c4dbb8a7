// /mc-admin/locations/:id/edit: change any field; a new panel link is checked on the panel first.
import { Button, dialogs, http, Page, PermissionGate, ResourceState, useApi, useParams, useTranslation } from '@orepanel/sdk';
import { useState } from 'react';
import { adminPath, apiUrl, PERMISSIONS, type Location } from '../api';
import { locationValuesOf } from '../catalog-form';
import { LocationForm } from './LocationForm';

export default function LocationEditPage() {
  const { t } = useTranslation('server-catalog');
  const { id = '' } = useParams();
  const loaded = useApi<{ location: Location }>(apiUrl.location(id));
  const [saved, setSaved] = useState<Location | null>(null);
  const location = saved ?? loaded.data?.location;
  return (
    <Page
      title={location ? t('editTitle', { name: location.name }) : t('locations.titles.edit')}
      actions={
        <>
          <Button variant="secondary" to={adminPath.locations.list}>
            {t('back')}
          </Button>
          {location && (
            <PermissionGate permission={PERMISSIONS.locations.delete}>
              <Button variant="ghost" to={adminPath.locations.delete(location.id)}>
                {t('delete')}
              </Button>
            </PermissionGate>
          )}
        </>
      }
    >
      <ResourceState data={location} loading={loaded.loading} error={loaded.error} reload={loaded.reload} errorTitle={t('loadFailed')} lines={6}>
        {(current) => (
          <LocationForm
            key={current.updated_at}
            editing={{ id: current.id, values: locationValuesOf(current) }}
            submitText={t('form.save')}
            onSubmit={async (body) => {
              const answer = await http.patch<{ location: Location }>(apiUrl.location(current.id), body);
              setSaved(answer.location);
              void dialogs.toast(t('saved', { name: answer.location.name }));
            }}
          />
        )}
      </ResourceState>
    </Page>
  );
}
