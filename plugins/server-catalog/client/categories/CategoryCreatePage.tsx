// /mc-admin/egg-categories/create: a new category linked to a panel nest; then back to the list.
import { Button, dialogs, http, Page, useNavigate, useTranslation } from '@orepanel/sdk';
import { adminPath, apiUrl, type Category } from '../api';
import { CategoryForm } from './CategoryForm';

export default function CategoryCreatePage() {
  const { t } = useTranslation('server-catalog');
  const navigate = useNavigate();
  return (
    <Page
      title={t('categories.titles.create')}
      actions={
        <Button variant="secondary" to={adminPath.categories.list}>
          {t('back')}
        </Button>
      }
    >
      <CategoryForm
        editing={null}
        submitText={t('form.create')}
        onSubmit={async (body) => {
          const { category } = await http.post<{ category: Category }>(apiUrl.categories, body);
          void dialogs.toast(t('created', { name: category.name }));
          navigate(adminPath.categories.list, { replace: true });
        }}
      />
    </Page>
  );
}
