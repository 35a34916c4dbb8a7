// /server/:id/delete: deleting removes the server from the panel with all its files, and gives its
// resources back. The user types the server's name to confirm (a slip of the mouse cannot do it),
// then goes back to the dashboard.
import { Alert, Button, Card, dialogs, Form, http, Page, ResourceState, TextField, theme, useNavigate, useSession, useTranslation } from '@orepanel/sdk';
import { useState } from 'react';
import type { OkResponse, ServerDetail } from '../shared/api';
import { api, paths } from './paths';
import { ServerHeader } from './ServerHeader';
import { useServerFromAddress } from './use-server';

function DeleteForm({ server }: { server: ServerDetail }) {
  const { t } = useTranslation('servers');
  const navigate = useNavigate();
  const { refresh } = useSession();
  const [typed, setTyped] = useState('');
  const matches = typed.trim() === server.name.trim();

  const submit = async () => {
    if (!matches) return;
    await http.post<OkResponse>(api.remove(server.id));
    void refresh();
    void dialogs.toast(t('delete.done', { name: server.name }));
    navigate(paths.dashboard, { replace: true });
  };

  return (
    <Card>
      <Form onSubmit={submit} aria-label={t('titles.delete')} noValidate>
        <Alert tone="warning" title={t('delete.question', { name: server.name })}>
          {t('delete.explain')}
        </Alert>
        <TextField
          name="confirm_name"
          label={t('delete.typeName', { name: server.name })}
          value={typed}
          onChange={setTyped}
          autoComplete="off"
          spellCheck={false}
          hint={t('delete.typeHint')}
        />
        <div css={{ display: 'flex', flexWrap: 'wrap', gap: 8 }}>
          <Button type="submit" variant="danger" disabled={!matches}>
            {t('delete.submit')}
          </Button>
          <Button variant="secondary" to={paths.dashboard}>
            {t('common.cancel')}
          </Button>
        </div>
        <p css={{ margin: 0, color: theme.colors.subtle, fontSize: theme.font.size.sm }}>{t('delete.resourcesBack')}</p>
      </Form>
    </Card>
  );
}

export default function ServerDeletePage() {
  const { t } = useTranslation('servers');
  const loaded = useServerFromAddress();
  return (
    <Page title={t('titles.delete')}>
      <ResourceState data={loaded.data} loading={loaded.loading} error={loaded.error} reload={loaded.reload} errorTitle={t('server.loadFailed')}>
        {(server) => (
          <div css={{ display: 'grid', gap: 16, maxWidth: 720 }}>
            <ServerHeader server={server} />
            <DeleteForm server={server} />
          </div>
        )}
      </ResourceState>
    </Page>
  );
}
