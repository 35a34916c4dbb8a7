// The sdk's ResourceState with the admin area's texts (it moved to the sdk when a second plugin's
// admin screens needed it).
import { ResourceState as SdkResourceState, useTranslation, type ResourceStateProps } from '@orepanel/sdk';

export type { ResourceStateProps };

export function ResourceState<T>(props: ResourceStateProps<T>) {
  const { t } = useTranslation('admin');
  return <SdkResourceState errorTitle={t('common.loadFailed')} loadingLabel={t('common.loading')} {...props} />;
}
