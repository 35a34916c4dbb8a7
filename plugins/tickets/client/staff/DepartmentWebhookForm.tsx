// The department's outgoing webhook, on its edit page (server/webhook-routes.ts): where new tickets
// and replies are posted (a Discord webhook, or a JSON POST signed with a secret), which events go,
// whether it is on, a test send, and how the last delivery ended. The secret is never shown once
// saved: a generated one is shown until the save, for the administrator to copy to the receiver.
import {
  ADMIN_API,
  Alert,
  Badge,
  Button,
  Card,
  Checkbox,
  CopyButton,
  Form,
  http,
  ResourceState,
  Select,
  TextField,
  UnchangedNote,
  ApiError,
  confirmAction,
  dialogs,
  useApi,
  useEditForm,
  useTranslation,
  type BadgeTone,
  type EditForm,
} from '@orepanel/sdk';
import { useCallback, useState } from 'react';
import { useStaffErrorText } from './staff-errors';

export const WEBHOOK_KINDS = ['discord', 'json'] as const;
export type WebhookKind = (typeof WEBHOOK_KINDS)[number];
export const WEBHOOK_EVENTS = ['created', 'customer_replied', 'staff_replied', 'closed'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/** the server's bounds (server/webhooks.ts, server/webhook-address.ts) */
export const WEBHOOK_LIMITS = { urlMaxLength: 2048, secretMinLength: 16, secretMaxLength: 256 } as const;

export interface Webhook {
  department_id: number;
  /** null: sealed with another SECRET_KEY, to be entered again */
  url: string | null;
  kind: WebhookKind;
  enabled: boolean;
  events: WebhookEvent[];
  secret_set: boolean;
  last_status: 'ok' | 'retrying' | 'failed' | null;
  last_at: string | null;
  last_error: string | null;
  updated_at: string;
}

export interface WebhookBody {
  url: string;
  kind: WebhookKind;
  enabled: boolean;
  events: WebhookEvent[];
  secret?: string | null;
}

export interface WebhookTestResult {
  ok: boolean;
  status: number | null;
  error: string | null;
}

export const webhookUrl = (departmentId: number) => `${ADMIN_API}/departments/${departmentId}/webhook`;

interface WebhookValues {
  url: string;
  kind: WebhookKind;
  enabled: boolean;
  events: WebhookEvent[];
  /** a new secret; '' keeps the stored one */
  secret: string;
}

const EMPTY: WebhookValues = { url: '', kind: 'discord', enabled: true, events: ['created', 'customer_replied'], secret: '' };
const STATUS_TONE: Record<NonNullable<Webhook['last_status']>, BadgeTone> = { ok: 'success', retrying: 'warning', failed: 'danger' };

function valuesOf(webhook: Webhook | null): WebhookValues {
  return webhook ? { url: webhook.url ?? '', kind: webhook.kind, enabled: webhook.enabled, events: [...webhook.events], secret: '' } : EMPTY;
}

/** i18n keys (tickets namespace) of the problems, per field; the server checks the address itself. */
export function checkWebhook(values: WebhookValues, secretSet: boolean): Partial<Record<keyof WebhookValues, string>> {
  const url = values.url.trim();
  if (url === '') return { url: 'staff.validation.required' };
  if (!/^https?:\/\/\S+$/i.test(url)) return { url: 'staff.webhook.urlInvalid' };
  if (url.length > WEBHOOK_LIMITS.urlMaxLength) return { url: 'staff.validation.tooLong' };
  if (values.kind === 'json') {
    if (values.secret === '' && !secretSet) return { secret: 'staff.webhook.secretRequired' };
    if (values.secret !== '' && !/^[\x21-\x7e]+$/.test(values.secret)) return { secret: 'staff.webhook.secretCharacters' };
    if (values.secret !== '' && values.secret.length < WEBHOOK_LIMITS.secretMinLength) return { secret: 'staff.webhook.secretShort' };
    if (values.secret.length > WEBHOOK_LIMITS.secretMaxLength) return { secret: 'staff.validation.tooLong' };
  }
  return {};
}

/** What a save sends: the whole webhook, or nothing when nothing changed. A Discord webhook keeps no secret. */
export function webhookBody(saved: Webhook | null, values: WebhookValues): WebhookBody | Record<string, never> {
  const body: WebhookBody = { url: values.url.trim(), kind: values.kind, enabled: values.enabled, events: WEBHOOK_EVENTS.filter((e) => values.events.includes(e)) };
  if (values.kind === 'discord') {
    if (saved?.secret_set) body.secret = null;
  } else if (values.secret !== '') {
    body.secret = values.secret;
  }
  if (!saved) return body;
  const same = body.url === saved.url && body.kind === saved.kind && body.enabled === saved.enabled && body.events.join() === saved.events.join() && body.secret === undefined;
  return same ? {} : body;
}

/** 32 random bytes as hex: a signing secret to paste into the receiver. */
export function generateSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export interface DepartmentWebhookFormProps {
  departmentId: number;
}

/** The webhook section of a department's edit page: loads, then edits, tests and deletes it. */
export function DepartmentWebhookForm({ departmentId }: DepartmentWebhookFormProps) {
  const { t } = useTranslation('tickets');
  const loaded = useApi<{ webhook: Webhook | null }>(webhookUrl(departmentId));
  const [saved, setSaved] = useState<{ webhook: Webhook | null } | null>(null);
  const current = saved ?? loaded.data;
  return (
    <ResourceState data={current} loading={loaded.loading} error={loaded.error} reload={loaded.reload} errorTitle={t('staff.webhook.loadFailed')} lines={4}>
      {({ webhook }) => (
        <Card title={t('staff.webhook.title')}>
          <p css={{ margin: '0 0 16px', opacity: 0.8 }}>{t('staff.webhook.description')}</p>
          <WebhookEditor key={webhook?.updated_at ?? 'none'} departmentId={departmentId} webhook={webhook} onSaved={(next) => setSaved({ webhook: next })} />
        </Card>
      )}
    </ResourceState>
  );
}

interface WebhookEditorProps {
  departmentId: number;
  webhook: Webhook | null;
  onSaved(webhook: Webhook | null): void;
}

function WebhookEditor({ departmentId, webhook, onSaved }: WebhookEditorProps) {
  const { t, i18n } = useTranslation('tickets');
  const staffErrorText = useStaffErrorText();
  const errorText = useCallback(
    (error: unknown) => {
      const key = error instanceof ApiError ? `staff.webhook.errors.${error.code}` : null;
      return key && i18n.exists(key, { ns: 'tickets' }) ? t(key) : staffErrorText(error);
    },
    [t, i18n, staffErrorText],
  );
  const [test, setTest] = useState<{ state: 'idle' | 'sending' } | { state: 'done'; result: WebhookTestResult } | { state: 'failed'; message: string }>({ state: 'idle' });
  const form = useEditForm({
    initial: valuesOf(webhook),
    check: (values: WebhookValues) => checkWebhook(values, webhook?.secret_set ?? false),
    changes: (values: WebhookValues) => webhookBody(webhook, values),
    submit: async (body) => {
      const answer = await http.put<{ webhook: Webhook }>(webhookUrl(departmentId), body);
      onSaved(answer.webhook);
      void dialogs.toast(t('staff.webhook.saved'));
    },
    problemText: (problem) => t(problem),
  });
  const { values, set } = form;
  const toggleEvent = (event: WebhookEvent) => (checked: boolean) =>
    set('events')(checked ? [...values.events.filter((e) => e !== event), event] : values.events.filter((e) => e !== event));

  const sendTest = async () => {
    setTest({ state: 'sending' });
    try {
      setTest({ state: 'done', result: await http.post<WebhookTestResult>(`${webhookUrl(departmentId)}/test`) });
    } catch (error) {
      setTest({ state: 'failed', message: errorText(error) });
    }
  };

  const remove = async () => {
    const result = await confirmAction({
      title: t('staff.webhook.deleteQuestion'),
      text: t('staff.webhook.deleteExplain'),
      confirmText: t('staff.webhook.delete'),
      danger: true,
      action: () => http.delete(webhookUrl(departmentId)),
      successText: t('staff.webhook.deleted'),
    });
    if (result.status === 'done') onSaved(null);
  };

  return (
    <div css={{ display: 'grid', gap: 16, minWidth: 0 }}>
      {webhook && <LastDelivery webhook={webhook} />}
      {webhook && webhook.url === null && <Alert tone="warning">{t('staff.webhook.urlLost')}</Alert>}
      <Form onSubmit={form.submit} aria-label={t('staff.webhook.title')} errorText={errorText} noValidate>
        <UnchangedNote form={form}>{t('staff.webhook.nothingChanged')}</UnchangedNote>
        <TextField
          label={t('staff.webhook.url')}
          {...form.field('url')}
          type="url"
          inputMode="url"
          maxLength={WEBHOOK_LIMITS.urlMaxLength}
          autoComplete="off"
          spellCheck={false}
          placeholder="https://discord.com/api/webhooks/…"
          hint={t('staff.webhook.urlHint')}
        />
        <Select
          label={t('staff.webhook.kind')}
          name="kind"
          value={values.kind}
          onChange={(value) => set('kind')(value as WebhookKind)}
          options={WEBHOOK_KINDS.map((kind) => ({ value: kind, label: t(`staff.webhook.kinds.${kind}`) }))}
          hint={t(`staff.webhook.kindHints.${values.kind}`)}
        />
        {values.kind === 'json' && <SecretField form={form} secretSet={webhook?.secret_set ?? false} />}
        <fieldset css={{ border: 0, margin: 0, padding: 0, display: 'grid', gap: 8, minWidth: 0 }}>
          <legend css={{ fontWeight: 600, marginBottom: 4 }}>{t('staff.webhook.events')}</legend>
          {WEBHOOK_EVENTS.map((event) => (
            <Checkbox key={event} label={t(`staff.webhook.eventNames.${event}`)} name={`event_${event}`} checked={values.events.includes(event)} onChange={toggleEvent(event)} />
          ))}
          <p css={{ margin: 0, fontSize: 13, opacity: 0.75 }}>{t('staff.webhook.notesNever')}</p>
        </fieldset>
        <Checkbox label={t('staff.webhook.enabled')} name="enabled" checked={values.enabled} onChange={set('enabled')} hint={t('staff.webhook.enabledHint')} />
        <div css={{ display: 'flex', flexWrap: 'wrap', gap: 8 }}>
          <Button type="submit">{webhook ? t('staff.webhook.save') : t('staff.webhook.create')}</Button>
          {webhook && (
            <>
              <Button variant="secondary" loading={test.state === 'sending'} onClick={() => void sendTest()}>
                {t('staff.webhook.test')}
              </Button>
              <Button variant="ghost" onClick={() => void remove()}>
                {t('staff.webhook.delete')}
              </Button>
            </>
          )}
        </div>
      </Form>
      {webhook && form.pending > 0 && <p css={{ margin: 0, fontSize: 13, opacity: 0.75 }}>{t('staff.webhook.testUsesSaved')}</p>}
      <div aria-live="polite">
        {test.state === 'done' &&
          (test.result.ok ? (
            <Alert tone="success" onClose={() => setTest({ state: 'idle' })}>
              {t('staff.webhook.testPassed', { status: test.result.status })}
            </Alert>
          ) : (
            <Alert tone="error" title={t('staff.webhook.testFailed')} onClose={() => setTest({ state: 'idle' })}>
              <span>{test.result.error}</span>
            </Alert>
          ))}
        {test.state === 'failed' && (
          <Alert tone="error" onClose={() => setTest({ state: 'idle' })}>
            {test.message}
          </Alert>
        )}
      </div>
    </div>
  );
}

function LastDelivery({ webhook }: { webhook: Webhook }) {
  const { t } = useTranslation('tickets');
  if (webhook.last_status === null || webhook.last_at === null) return <p css={{ margin: 0, opacity: 0.8 }}>{t('staff.webhook.neverDelivered')}</p>;
  return (
    <div css={{ display: 'grid', gap: 6, minWidth: 0 }}>
      <div css={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 8 }}>
        <span css={{ fontWeight: 600 }}>{t('staff.webhook.lastDelivery')}</span>
        <Badge tone={STATUS_TONE[webhook.last_status]}>{t(`staff.webhook.statuses.${webhook.last_status}`)}</Badge>
        <time dateTime={webhook.last_at} css={{ opacity: 0.8 }}>
          {t('staff.dateTime', { value: new Date(webhook.last_at) })}
        </time>
      </div>
      {webhook.last_error && <code css={{ fontSize: 13, opacity: 0.85, overflowWrap: 'anywhere' }}>{webhook.last_error}</code>}
    </div>
  );
}

interface SecretFieldProps {
  form: EditForm<WebhookValues, WebhookBody | Record<string, never>>;
  secretSet: boolean;
}

/** The JSON kind's signing secret: typed, pasted or generated; once saved it is only "set". */
function SecretField({ form, secretSet }: SecretFieldProps) {
  const { t } = useTranslation('tickets');
  const [editing, setEditing] = useState(!secretSet);
  const secret = form.values.secret;
  if (!editing) {
    return (
      <div css={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 8 }}>
        <Badge tone="success">{t('staff.webhook.secretSet')}</Badge>
        <Button size="sm" variant="secondary" onClick={() => setEditing(true)}>
          {t('staff.webhook.secretReplace')}
        </Button>
      </div>
    );
  }
  return (
    <div css={{ display: 'grid', gap: 8, minWidth: 0 }}>
      <TextField
        label={t('staff.webhook.secret')}
        {...form.field('secret')}
        maxLength={WEBHOOK_LIMITS.secretMaxLength}
        autoComplete="off"
        spellCheck={false}
        hint={secretSet ? t('staff.webhook.secretReplaceHint') : t('staff.webhook.secretHint')}
      />
      <div css={{ display: 'flex', flexWrap: 'wrap', gap: 8 }}>
        <Button size="sm" variant="secondary" onClick={() => form.set('secret')(generateSecret())}>
          {t('staff.webhook.secretGenerate')}
        </Button>
        {secret !== '' && <CopyButton text={secret} />}
        {secretSet && (
          <Button
            size="sm"
            variant="ghost"
            onClick={() => {
              form.set('secret')('');
              setEditing(false);
            }}
          >
            {t('staff.webhook.secretKeep')}
          </Button>
        )}
      </div>
    </div>
  );
}
