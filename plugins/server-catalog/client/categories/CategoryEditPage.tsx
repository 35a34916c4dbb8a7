// /mc-admin/egg-categories/:id/edit: change any field; the nest only while the category holds no eggs.
import { Button, dialogs, http, Page, PermissionGate, ResourceState, useApi, useParams, useTranslation } from '@orepanel/sdk';
import { useState } from 'react';
import { adminPath, apiUrl, PERMISSIONS, type Category } from '../api';
import { categoryValuesOf } from '../catalog-form';
import { CategoryForm } from './CategoryForm';

export default function CategoryEditPage() {
  const { t } = useTranslation('server-catalog');
  const { id = '' } = useParams();
  const loaded = useApi<{ category: Category }>(apiUrl.category(id));
  const [saved, setSaved] = useState<Category | null>(null);
  const category = saved ?? loaded.data?.category;
  return (
    <Page
      title={category ? t('editTitle', { name: category.name }) : t('categories.titles.edit')}
      actions={
        <>
          <Button variant="secondary" to={adminPath.categories.list}>
            {t('back')}
          </Button>
          {category && (
            <PermissionGate permission={PERMISSIONS.categories.delete}>
              <Button variant="ghost" to={adminPath.categories.delete(category.id)}>
                {t('delete')}
              </Button>
            </PermissionGate>
          )}
        </>
      }
    >
      <ResourceState data={category} loading={loaded.loading} error={loaded.error} reload={loaded.reload} errorTitle={t('loadFailed')} lines={5}>
        {(current) => (
          <CategoryForm
            key={current.updated_at}
            editing={{ id: current.id, eggs: current.eggs, values: categoryValuesOf(current) }}
            submitText={t('form.save')}
            onSubmit={async (body) => {
              const answer = await http.patch<{ category: Category }>(apiUrl.category(current.id), body);
              setSaved(answer.category);
              void dialogs.toast(t('saved', { name: answer.category.name }));
            }}
          />
        )}
      </ResourceState>
    </Page>
  );
}
