// /server/create: where (a location), what (a category, then an egg), a name, and how big (each
// resource between the server's minimum and what the account has free), a summary, then Create.
// What stops creating right now (a server already being built, a forced account link, no free slot,
// no panel) is explained first, with the way to fix it, and Create stays off. A created server is
// queued: the user goes to the dashboard, where the widget shows it as pending until it is built.
import {
  Alert,
  Button,
  Card,
  dialogs,
  Form,
  http,
  isApiError,
  Page,
  ResourceState,
  TextArea,
  TextField,
  theme,
  useApi,
  useNavigate,
  useSession,
  useTranslation,
} from '@orepanel/sdk';
import { useMemo, useState, type ReactNode } from 'react';
import {
  SERVER_DESCRIPTION_MAX,
  SERVER_NAME_MAX,
  type CreateOptionsResponse,
  type CreateServerRequest,
  type CreateServerResponse,
  type ServerResourceKey,
  type ServerResources,
} from '../../shared/api';
import { BrokenNote } from '../BrokenNote';
import { api, paths } from '../paths';
import { ResourceFields } from '../ResourceFields';
import { allFree, createBounds, resourceProblems, resourceText, SERVER_RESOURCE_KEYS, shortResources, suggestedResources } from '../resources';
import { BlockerNotice } from './BlockerNotice';
import { EggChoice } from './EggChoice';
import { LocationChoice } from './LocationChoice';

function Step({ n, title, hint, children }: { n: number; title: string; hint?: string; children: ReactNode }) {
  return (
    <Card
      title={
        <span css={{ display: 'inline-flex', alignItems: 'center', gap: 10 }}>
          <span
            aria-hidden
            css={{
              display: 'inline-grid',
              placeItems: 'center',
              width: 26,
              height: 26,
              borderRadius: theme.radii.full,
              background: theme.colors.primarySoft,
              color: theme.colors.primaryHover,
              fontSize: theme.font.size.sm,
            }}
          >
            {n}
          </span>
          {title}
        </span>
      }
    >
      <div css={{ display: 'grid', gap: 14 }}>
        {hint && <p css={{ margin: 0, color: theme.colors.muted }}>{hint}</p>}
        {children}
      </div>
    </Card>
  );
}

function CreateForm({ options, reload }: { options: CreateOptionsResponse; reload(): void }) {
  const { t } = useTranslation('servers');
  const navigate = useNavigate();
  const { refresh } = useSession();
  const bounds = useMemo(() => createBounds(options.free, options.minimums), [options.free, options.minimums]);
  const openLocations = options.locations.filter((l) => l.available);
  const openCategories = options.categories.filter((c) => !c.vipOnly || options.vip);
  const [locationId, setLocationId] = useState<number | null>(openLocations.length === 1 ? openLocations[0].id : null);
  // a choice with only one open option is made for the user
  const onlyEgg = (id: number | null) => {
    const open = options.categories.find((c) => c.id === id)?.eggs.filter((e) => !e.vipOnly || options.vip) ?? [];
    return open.length === 1 ? open[0].id : null;
  };
  const [categoryId, setCategoryId] = useState<number | null>(openCategories.length === 1 ? openCategories[0].id : null);
  const [eggId, setEggId] = useState<number | null>(() => onlyEgg(categoryId));
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [values, setValues] = useState<ServerResources>(() => suggestedResources(bounds));

  const location = options.locations.find((l) => l.id === locationId && l.available) ?? null;
  const egg = options.categories.flatMap((c) => c.eggs).find((e) => e.id === eggId && (!e.vipOnly || options.vip)) ?? null;
  const problems = resourceProblems(values, bounds);
  const short = shortResources(bounds);
  const nameError = name.length > SERVER_NAME_MAX ? t('create.details.nameTooLong', { max: SERVER_NAME_MAX }) : null;
  const descriptionError = description.length > SERVER_DESCRIPTION_MAX ? t('create.details.descriptionTooLong', { max: SERVER_DESCRIPTION_MAX }) : null;

  const missing = [
    !location && t('create.missing.location'),
    !egg && t('create.missing.egg'),
    !name.trim() && t('create.missing.name'),
    (nameError || descriptionError) && t('create.missing.details'),
    Object.keys(problems).length > 0 && t('create.missing.resources'),
  ].filter((m): m is string => typeof m === 'string');
  const blocked = options.blockers.length > 0;

  const submit = async () => {
    if (!location || !egg || missing.length > 0 || blocked) return;
    const body: CreateServerRequest = { name: name.trim(), description: description.trim() || null, location_id: location.id, egg_id: egg.id, ...values };
    try {
      await http.post<CreateServerResponse>(api.create, body);
    } catch (error) {
      // someone else took the last slot or the resources moved: show the current picture
      if (isApiError(error) && error.status === 409) reload();
      throw error;
    }
    void refresh();
    void dialogs.toast(t('create.queued', { name: body.name }));
    navigate(paths.dashboard);
  };

  const change = (key: ServerResourceKey, value: number) => setValues((v) => ({ ...v, [key]: value }));

  return (
    <Form onSubmit={submit} aria-label={t('titles.create')} noValidate>
      {blocked && <BlockerNotice blockers={options.blockers} />}

      <Step n={1} title={t('create.location.title')} hint={t('create.location.hint')}>
        {options.locations.length === 0 ? (
          <Alert tone="info">{t('create.location.none')}</Alert>
        ) : (
          <LocationChoice locations={options.locations} chosen={locationId} onChoose={setLocationId} />
        )}
      </Step>

      <Step n={2} title={t('create.egg.title')} hint={t('create.egg.hint')}>
        {options.categories.length === 0 ? (
          <Alert tone="info">{t('create.egg.none')}</Alert>
        ) : (
          <EggChoice
            categories={options.categories}
            vip={options.vip}
            categoryId={categoryId}
            eggId={eggId}
            onCategory={(id) => {
              setCategoryId(id);
              setEggId(onlyEgg(id));
            }}
            onEgg={setEggId}
          />
        )}
      </Step>

      <Step n={3} title={t('create.details.title')}>
        <TextField
          name="name"
          label={t('create.details.name')}
          value={name}
          onChange={setName}
          maxLength={SERVER_NAME_MAX}
          autoComplete="off"
          error={nameError}
          hint={t('create.details.nameHint', { max: SERVER_NAME_MAX })}
        />
        <TextArea
          name="description"
          label={t('create.details.description')}
          value={description}
          onChange={setDescription}
          rows={2}
          error={descriptionError}
          hint={t('create.details.descriptionHint', { max: SERVER_DESCRIPTION_MAX })}
        />
      </Step>

      <Step n={4} title={t('create.resources.title')} hint={t('create.resources.hint', { slots: options.free.server_slots, total: options.totals.server_slots })}>
        <BrokenNote fields={options.broken_resources} kind="account" />
        {short.length > 0 && <Alert tone="warning">{t('create.resources.short', { resources: short.map((key) => t(`resources.names.${key}`)).join(', ') })}</Alert>}
        <ResourceFields
          values={values}
          bounds={bounds}
          onChange={change}
          hint={(key) => t('create.resources.free', { free: resourceText(t, key, options.free[key]), min: resourceText(t, key, bounds[key].min) })}
        />
        <div>
          <Button size="sm" variant="secondary" onClick={() => setValues(allFree(bounds))} disabled={short.length > 0}>
            {t('create.resources.useAll')}
          </Button>
        </div>
      </Step>

      <Card title={t('create.summary.title')}>
        <div css={{ display: 'grid', gap: 14 }}>
          <dl css={{ display: 'grid', gridTemplateColumns: 'max-content minmax(0, 1fr)', gap: '6px 16px', margin: 0 }}>
            <dt css={{ color: theme.colors.muted }}>{t('create.summary.location')}</dt>
            <dd css={{ margin: 0 }}>{location?.name ?? '—'}</dd>
            <dt css={{ color: theme.colors.muted }}>{t('create.summary.egg')}</dt>
            <dd css={{ margin: 0 }}>{egg?.name ?? '—'}</dd>
            <dt css={{ color: theme.colors.muted }}>{t('create.summary.name')}</dt>
            <dd css={{ margin: 0, overflowWrap: 'anywhere' }}>{name.trim() || '—'}</dd>
            {SERVER_RESOURCE_KEYS.map((key) => (
              <div key={key} css={{ display: 'contents' }}>
                <dt css={{ color: theme.colors.muted }}>{t(`resources.names.${key}`)}</dt>
                <dd css={{ margin: 0, fontVariantNumeric: 'tabular-nums' }}>{Number.isNaN(values[key]) ? '—' : resourceText(t, key, values[key])}</dd>
              </div>
            ))}
          </dl>
          {options.renewal.enabled && (
            <p css={{ margin: 0, color: theme.colors.muted }}>{t('create.summary.renewal', { days: options.renewal.days, cost: options.renewal.cost })}</p>
          )}
          <p css={{ margin: 0, color: theme.colors.muted }}>{t('create.summary.queueNote')}</p>
          {!blocked && missing.length > 0 && (
            <p role="status" css={{ margin: 0, color: theme.colors.warning }}>
              {t('create.summary.missing', { items: missing.join(', ') })}
            </p>
          )}
          <div css={{ display: 'flex', flexWrap: 'wrap', gap: 8 }}>
            <Button type="submit" icon="server" disabled={blocked || missing.length > 0}>
              {t('create.submit')}
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

export default function ServerCreatePage() {
  const { t } = useTranslation('servers');
  const loaded = useApi<CreateOptionsResponse>(api.createOptions);
  return (
    <Page title={t('titles.create')} description={t('create.description')}>
      <ResourceState data={loaded.data} loading={loaded.loading} error={loaded.error} reload={loaded.reload} errorTitle={t('create.loadFailed')} loadingLabel={t('create.loading')}>
        {(options) => <CreateForm options={options} reload={loaded.reload} />}
      </ResourceState>
    </Page>
  );
}
