// /mc-admin/eggs/create: a new egg in a category, linked to a panel egg of the category's nest.
import { Button, dialogs, http, Page, useNavigate, useSearchParams, useTranslation } from '@orepanel/sdk';
import { adminPath, apiUrl, type Egg } from '../api';
import { EggForm } from './EggForm';

export default function EggCreatePage() {
  const { t } = useTranslation('server-catalog');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const preset = /^\d+$/.test(params.get('category') ?? '') ? params.get('category')! : undefined;
  return (
    <Page
      title={t('eggs.titles.create')}
      actions={
        <Button variant="secondary" to={adminPath.eggs.list}>
          {t('back')}
        </Button>
      }
    >
      <EggForm
        editing={null}
        presetCategory={preset}
        submitText={t('form.create')}
        onSubmit={async (body) => {
          const { egg } = await http.post<{ egg: Egg }>(apiUrl.eggs, body);
          void dialogs.toast(t('created', { name: egg.name }));
          navigate(adminPath.eggs.list, { replace: true });
        }}
      />
    </Page>
  );
}
