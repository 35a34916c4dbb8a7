// /mc-admin/locations/create: a new location linked to a panel location; then back to the list.
import { Button, dialogs, http, Page, useNavigate, useTranslation } from '@orepanel/sdk';
import { adminPath, apiUrl, type Location } from '../api';
import { LocationForm } from './LocationForm';

export default function LocationCreatePage() {
  const { t } = useTranslation('server-catalog');
  const navigate = useNavigate();
  return (
    <Page
      title={t('locations.titles.create')}
      actions={
        <Button variant="secondary" to={adminPath.locations.list}>
          {t('back')}
        </Button>
      }
    >
      <LocationForm
        editing={null}
        submitText={t('form.create')}
        onSubmit={async (body) => {
          const { location } = await http.post<{ location: Location }>(apiUrl.locations, body);
          void dialogs.toast(t('created', { name: location.name }));
          navigate(adminPath.locations.list, { replace: true });
        }}
      />
    </Page>
  );
}
