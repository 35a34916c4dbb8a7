// /server/:id/update: the server's current resources and the new ones. Only an increase is taken
// from the account's free resources (a decrease gives back), so each field goes up to current + free
// and says what the change takes or gives back; the summary adds it up before saving.
import { Alert, Button, Card, dialogs, Form, http, isApiError, Page, ResourceState, theme, useNavigate, useSession, useTranslation } from '@orepanel/sdk';
import { useMemo, useState } from 'react';
import type { CreateOptionsResponse, ServerDetail, ServerResourceKey, ServerResources, UpdateServerResponse } from '../shared/api';
import { BrokenNote } from './BrokenNote';
import { api, paths } from './paths';
import { ResourceFields } from './ResourceFields';
import { resourceProblems, resourceText, SERVER_RESOURCE_KEYS, updateBounds } from './resources';
import { ServerHeader } from './ServerHeader';
import { useServerWithOptions } from './use-server';

function UpdateForm({ server, options, reload }: { server: ServerDetail; options: CreateOptionsResponse; reload(): void }) {
  const { t } = useTranslation('servers');
  const navigate = useNavigate();
  const { refresh } = useSession();
  const bounds = useMemo(() => updateBounds(server.resources, options.free, options.minimums), [server.resources, options.free, options.minimums]);
  const [values, setValues] = useState<ServerResources>(server.resources);
  const problems = resourceProblems(values, bounds);
  const changes = SERVER_RESOURCE_KEYS.filter((key) => !Number.isNaN(values[key]) && values[key] !== server.resources[key]);
  const takes = changes.filter((key) => values[key] > server.resources[key]);
  const gives = changes.filter((key) => values[key] < server.resources[key]);
  const delta = (key: ServerResourceKey) => resourceText(t, key, Math.abs(values[key] - server.resources[key]));

  const hint = (key: ServerResourceKey) => {
    const now = resourceText(t, key, server.resources[key]);
    const free = resourceText(t, key, options.free[key]);
    if (Number.isNaN(values[key]) || values[key] === server.resources[key]) return t('update.unchanged', { now, free });
    if (values[key] > server.resources[key]) return t('update.takes', { now, delta: delta(key), free });
    return t('update.gives', { now, delta: delta(key) });
  };

  const submit = async () => {
    if (Object.keys(problems).length > 0 || changes.length === 0) return;
    try {
      await http.post<UpdateServerResponse>(api.update(server.id), values);
    } catch (error) {
      if (isApiError(error) && error.status === 409) reload();
      throw error;
    }
    void refresh();
    void dialogs.toast(t('update.saved', { name: server.name }));
    navigate(paths.dashboard);
  };

  return (
    <Form onSubmit={submit} aria-label={t('titles.update')} noValidate>
      <Card title={t('update.resources')}>
        <BrokenNote fields={options.broken_resources} kind="account" />
        <ResourceFields values={values} bounds={bounds} onChange={(key, value) => setValues((v) => ({ ...v, [key]: value }))} hint={hint} />
      </Card>
      <Card title={t('update.summary')}>
        <div css={{ display: 'grid', gap: 12 }}>
          {changes.length === 0 ? (
            <p css={{ margin: 0, color: theme.colors.muted }}>{t('update.noChange')}</p>
          ) : (
            <ul css={{ margin: 0, paddingLeft: 18, display: 'grid', gap: 4 }}>
              {takes.map((key) => (
                <li key={key}>{t('update.takesLine', { delta: delta(key), resource: t(`resources.names.${key}`) })}</li>
              ))}
              {gives.map((key) => (
                <li key={key}>{t('update.givesLine', { delta: delta(key), resource: t(`resources.names.${key}`) })}</li>
              ))}
            </ul>
          )}
          {server.status === 'suspended' && <Alert tone="info">{t('update.suspendedNote')}</Alert>}
          <div css={{ display: 'flex', flexWrap: 'wrap', gap: 8 }}>
            <Button type="submit" icon="check" disabled={changes.length === 0 || Object.keys(problems).length > 0}>
              {t('update.submit')}
            </Button>
            <Button variant="secondary" to={paths.dashboard}>
              {t('common.cancel')}
            </Button>
          </div>
        </div>
      </Card>
    </Form>
  );
}

export default function ServerUpdatePage() {
  const { t } = useTranslation('servers');
  const loaded = useServerWithOptions();
  return (
    <Page title={t('titles.update')} description={t('update.description')}>
      <ResourceState data={loaded.data} loading={loaded.loading} error={loaded.error} reload={loaded.reload} errorTitle={t('server.loadFailed')}>
        {({ server, options }) => (
          <div css={{ display: 'grid', gap: 16 }}>
            <ServerHeader server={server} />
            <UpdateForm server={server} options={options} reload={loaded.reload} />
          </div>
        )}
      </ResourceState>
    </Page>
  );
}
