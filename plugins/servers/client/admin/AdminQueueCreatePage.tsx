// /mc-admin/server-queue/create: queues a server for a user. The choices come from the create
// options (every enabled location and egg, marked when full, offline or VIP); the API checks the
// user's resources, slots and VIP membership as for the user, without the forced-link and
// one-pending-entry rules. The new entry's page opens afterwards.
import { Alert, Button, Card, dialogs, Form, http, Page, ResourceState, Select, TextArea, TextField, theme, useApi, useNavigate, useTranslation } from '@orepanel/sdk';
import { useMemo, useState } from 'react';
import {
  SERVER_DESCRIPTION_MAX,
  SERVER_NAME_MAX,
  type AdminCreateQueueEntryRequest,
  type AdminCreateQueueEntryResponse,
  type CreateOptionsResponse,
  type ServerResources,
} from '../../shared/api';
import { adminApi, api, paths } from '../paths';
import { ResourceFields } from '../ResourceFields';
import { adminBounds, resourceProblems, resourceText, suggestedResources } from '../resources';
import { UserPicker, type PickedUser } from './UserPicker';

function QueueForm({ options }: { options: CreateOptionsResponse }) {
  const { t } = useTranslation('servers');
  const navigate = useNavigate();
  const bounds = useMemo(() => adminBounds(options.minimums), [options.minimums]);
  const [user, setUser] = useState<PickedUser | null>(null);
  const [locationId, setLocationId] = useState('');
  const [eggId, setEggId] = useState('');
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [values, setValues] = useState<ServerResources>(() => suggestedResources(bounds));
  const problems = resourceProblems(values, bounds);
  const ready = user && locationId && eggId && name.trim() && name.length <= SERVER_NAME_MAX && description.length <= SERVER_DESCRIPTION_MAX && Object.keys(problems).length === 0;

  const locationOptions = options.locations.map((l) => ({
    value: String(l.id),
    label: [
      l.name,
      l.vipOnly ? t('common.vip') : null,
      l.reason && l.reason !== 'VIP_ONLY' ? t(`create.location.reason.${l.reason}`) : null,
      t('create.location.slots', { used: l.used, slots: l.slots }),
    ]
      .filter(Boolean)
      .join(' · '),
  }));
  const eggOptions = options.categories.flatMap((c) => c.eggs.map((e) => ({ value: String(e.id), label: `${c.name} — ${e.name}${e.vipOnly ? ` · ${t('common.vip')}` : ''}` })));

  const submit = async () => {
    if (!ready || !user) return;
    const body: AdminCreateQueueEntryRequest = {
      user_uuid: user.uuid,
      name: name.trim(),
      description: description.trim() || null,
      location_id: Number(locationId),
      egg_id: Number(eggId),
      ...values,
    };
    const answer = await http.post<AdminCreateQueueEntryResponse>(adminApi.queue, body);
    void dialogs.toast(t('admin.create.queued', { name: answer.entry.name, owner: answer.entry.owner.username }));
    navigate(paths.adminEntry(answer.entry.id));
  };

  return (
    <div css={{ display: 'grid', gap: 16 }}>
      <Card title={t('admin.create.user')}>
        <UserPicker picked={user} onPick={setUser} />
      </Card>
      <Form onSubmit={submit} aria-label={t('admin.titles.queueCreate')} noValidate>
        <Card title={t('admin.create.server')}>
          <div css={{ display: 'grid', gap: 14 }}>
            <div css={{ display: 'grid', gap: 14, gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 280px), 1fr))' }}>
              <Select
                name="location_id"
                label={t('admin.create.location')}
                value={locationId}
                onChange={setLocationId}
                placeholder={t('admin.create.choosePlaceholder')}
                options={locationOptions}
              />
              <Select name="egg_id" label={t('admin.create.egg')} value={eggId} onChange={setEggId} placeholder={t('admin.create.choosePlaceholder')} options={eggOptions} />
            </div>
            <TextField name="name" label={t('create.details.name')} value={name} onChange={setName} maxLength={SERVER_NAME_MAX} autoComplete="off" />
            <TextArea name="description" label={t('create.details.description')} value={description} onChange={setDescription} rows={2} maxLength={SERVER_DESCRIPTION_MAX} />
          </div>
        </Card>
        <Card title={t('create.resources.title')}>
          <ResourceFields
            values={values}
            bounds={bounds}
            numbersOnly
            onChange={(key, value) => setValues((v) => ({ ...v, [key]: value }))}
            hint={(key) => t('admin.create.atLeast', { min: resourceText(t, key, bounds[key].min) })}
          />
        </Card>
        <Alert tone="info">{t('admin.create.rules')}</Alert>
        <div css={{ display: 'flex', flexWrap: 'wrap', gap: 8 }}>
          <Button type="submit" icon="server" disabled={!ready}>
            {t('admin.create.submit')}
          </Button>
          <Button variant="secondary" to={paths.adminQueue}>
            {t('common.cancel')}
          </Button>
        </div>
        {!user && <p css={{ margin: 0, color: theme.colors.muted }}>{t('admin.create.pickUserFirst')}</p>}
      </Form>
    </div>
  );
}

export default function AdminQueueCreatePage() {
  const { t } = useTranslation('servers');
  const loaded = useApi<CreateOptionsResponse>(api.createOptions);
  return (
    <Page
      title={t('admin.titles.queueCreate')}
      description={t('admin.create.description')}
      actions={
        <Button variant="secondary" to={paths.adminQueue}>
          {t('admin.back')}
        </Button>
      }
    >
      <ResourceState data={loaded.data} loading={loaded.loading} error={loaded.error} reload={loaded.reload} errorTitle={t('create.loadFailed')}>
        {(options) => <QueueForm options={options} />}
      </ResourceState>
    </Page>
  );
}
