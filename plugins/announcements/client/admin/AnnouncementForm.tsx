// The create and edit form of an announcement: title, short description, the Markdown body beside a
// live preview (side by side on a desktop, stacked on a phone; the preview is the server's own
// renderer, so it shows exactly what readers get), tags, severity, pinned, the audience (everyone or
// chosen roles) and the schedule (a draft, or published from a time, optionally until another).
import {
  ADMIN_API,
  ADMIN_PERMISSIONS,
  Alert,
  Button,
  Card,
  Checkbox,
  Form,
  http,
  Select,
  TextArea,
  TextField,
  theme,
  UnchangedNote,
  useApi,
  useEditForm,
  useHasPermission,
  useTranslation,
  type AdminRole,
} from '@orepanel/sdk';
import { useEffect, useState, type ReactNode } from 'react';
import { AnnouncementBody } from '../AnnouncementBody';
import { LIMITS, SEVERITIES, TAG, url, type AdminAnnouncement, type Severity } from '../api';

export interface AnnouncementFormValues {
  title: string;
  summary: string;
  body: string;
  /** comma- or space-separated */
  tags: string;
  severity: Severity;
  pinned: boolean;
  mail: boolean;
  everyone: boolean;
  role_ids: number[];
  /** false: a draft */
  published: boolean;
  /** datetime-local values (the browser's time zone) */
  publish_local: string;
  expire_local: string;
}

export interface AnnouncementPayload {
  title?: string;
  summary?: string;
  body?: string;
  tags?: string[];
  severity?: Severity;
  pinned?: boolean;
  mail?: boolean;
  role_ids?: number[];
  publish_at?: string | null;
  expire_at?: string | null;
}

const pad = (n: number) => String(n).padStart(2, '0');
/** an ISO time as a datetime-local value in this browser's time zone */
export function toLocalInput(iso: string): string {
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
/** a datetime-local value as ISO (UTC); null when empty or not a time */
export function fromLocalInput(local: string): string | null {
  if (!local) return null;
  const time = new Date(local).getTime();
  return Number.isFinite(time) ? new Date(time).toISOString() : null;
}
export const tagsOf = (text: string): string[] => [
  ...new Set(
    text
      .toLowerCase()
      .split(/[\s,]+/)
      .filter(Boolean),
  ),
];

export function emptyValues(now = Date.now()): AnnouncementFormValues {
  return {
    title: '',
    summary: '',
    body: '',
    tags: '',
    severity: 'info',
    pinned: false,
    mail: false,
    everyone: true,
    role_ids: [],
    published: false,
    publish_local: toLocalInput(new Date(now).toISOString()),
    expire_local: '',
  };
}

export function valuesOf(a: AdminAnnouncement): AnnouncementFormValues {
  return {
    title: a.title,
    summary: a.summary,
    body: a.body,
    tags: a.tags.join(', '),
    severity: a.severity,
    pinned: a.pinned,
    mail: a.mail,
    everyone: a.role_ids.length === 0,
    role_ids: [...a.role_ids],
    published: a.publish_at !== null,
    publish_local: toLocalInput(a.publish_at ?? new Date().toISOString()),
    expire_local: a.expire_at ? toLocalInput(a.expire_at) : '',
  };
}

/** i18n keys of the problems, per field; the server stays the authority */
export function checkAnnouncement(v: AnnouncementFormValues): Partial<Record<keyof AnnouncementFormValues, string>> {
  if (v.title.trim() === '') return { title: 'form.problems.required' };
  if (v.body.trim() === '') return { body: 'form.problems.required' };
  const tags = tagsOf(v.tags);
  if (tags.length > LIMITS.tags || tags.some((tag) => !TAG.test(tag))) return { tags: 'form.problems.tags' };
  if (!v.everyone && v.role_ids.length === 0) return { role_ids: 'form.problems.roles' };
  if (v.published) {
    const publish = fromLocalInput(v.publish_local);
    if (!publish) return { publish_local: 'form.problems.time' };
    if (v.expire_local) {
      const expire = fromLocalInput(v.expire_local);
      if (!expire) return { expire_local: 'form.problems.time' };
      if (expire <= publish) return { expire_local: 'form.problems.expireBeforePublish' };
    }
  }
  return {};
}

/** everything the values say, as the API takes it */
function fullBody(v: AnnouncementFormValues): Required<AnnouncementPayload> {
  return {
    title: v.title.trim(),
    summary: v.summary.trim(),
    body: v.body,
    tags: tagsOf(v.tags),
    severity: v.severity,
    pinned: v.pinned,
    mail: v.mail,
    role_ids: v.everyone ? [] : [...v.role_ids].sort((a, b) => a - b),
    publish_at: v.published ? fromLocalInput(v.publish_local) : null,
    expire_at: v.published ? fromLocalInput(v.expire_local) : null,
  };
}

/** What to send: everything for a new one, only what changed for an existing one. */
export function announcementBody(before: AnnouncementFormValues | null, values: AnnouncementFormValues): AnnouncementPayload {
  const next = fullBody(values);
  if (!before) return next;
  const old = fullBody(before);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(next) as (keyof AnnouncementPayload)[]) if (JSON.stringify(next[key]) !== JSON.stringify(old[key])) out[key] = next[key];
  return out as AnnouncementPayload;
}

/** The server's rendering of the body, asked a moment after typing stops. */
function usePreview(body: string): { html: string; failed: boolean } {
  const [state, setState] = useState({ html: '', failed: false });
  useEffect(() => {
    if (body.trim() === '') {
      setState({ html: '', failed: false });
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      http
        .post<{ html: string }>(url.preview, { body }, { signal: controller.signal })
        .then((answer) => setState({ html: answer.html, failed: false }))
        .catch(() => {
          if (!controller.signal.aborted) setState((s) => ({ ...s, failed: true }));
        });
    }, 300);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [body]);
  return state;
}

export interface AnnouncementFormProps {
  initial: AnnouncementFormValues | null;
  onSubmit(body: AnnouncementPayload): Promise<void>;
  submitText: string;
  /** the images panel (edit only), handed a way to put an image into the body */
  images?: (insert: (markdown: string) => void) => ReactNode;
}

export function AnnouncementForm({ initial, onSubmit, submitText, images }: AnnouncementFormProps) {
  const { t } = useTranslation('announcements');
  const mayListRoles = useHasPermission(ADMIN_PERMISSIONS.rolesList);
  const roles = useApi<{ data: AdminRole[] }>(mayListRoles ? `${ADMIN_API}/roles` : null);
  const [start] = useState(() => initial ?? emptyValues());
  const form = useEditForm({
    initial: start,
    check: checkAnnouncement,
    changes: (values: AnnouncementFormValues) => announcementBody(initial, values),
    submit: onSubmit,
    problemText: (problem) => t(problem),
  });
  const { values, set } = form;
  const preview = usePreview(values.body);
  const toggleRole = (id: number) => (checked: boolean) => set('role_ids')(checked ? [...values.role_ids.filter((r) => r !== id), id] : values.role_ids.filter((r) => r !== id));
  const insert = (markdown: string) => set('body')(`${values.body}${values.body && !values.body.endsWith('\n') ? '\n\n' : ''}${markdown}\n`);

  return (
    <Card>
      <Form onSubmit={form.submit} aria-label={submitText} noValidate>
        <UnchangedNote form={form}>{t('form.nothingChanged')}</UnchangedNote>
        <TextField label={t('form.title')} {...form.field('title')} maxLength={LIMITS.titleMaxLength} autoComplete="off" />
        <TextField label={t('form.summary')} {...form.field('summary')} maxLength={LIMITS.summaryMaxLength} hint={t('form.summaryHint')} />
        <div css={{ display: 'grid', gap: 14, [theme.breakpoints.md]: { gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1fr)' } }}>
          <TextArea label={t('form.body')} {...form.field('body')} maxLength={LIMITS.bodyMaxLength} rows={14} hint={t('form.bodyHint')} />
          <section aria-label={t('form.preview')} css={{ display: 'grid', gap: 6, alignContent: 'start', minWidth: 0 }}>
            <span css={{ fontWeight: 600 }}>{t('form.preview')}</span>
            <div css={{ border: `1px solid ${theme.colors.border}`, borderRadius: theme.radii.md, padding: 12, minHeight: 120, background: theme.colors.surfaceRaised }}>
              {preview.failed ? (
                <Alert tone="warning">{t('form.previewFailed')}</Alert>
              ) : preview.html ? (
                <AnnouncementBody html={preview.html} />
              ) : (
                <span css={{ color: theme.colors.muted }}>{t('form.previewEmpty')}</span>
              )}
            </div>
          </section>
        </div>
        {images?.(insert)}
        <TextField label={t('form.tags')} {...form.field('tags')} hint={t('form.tagsHint')} autoComplete="off" />
        <Select
          label={t('form.severity')}
          {...form.field('severity')}
          onChange={(value) => set('severity')(value as Severity)}
          options={SEVERITIES.map((s) => ({ value: s, label: t(`severity.${s}`) }))}
        />
        <Checkbox label={t('form.pinned')} name="pinned" checked={values.pinned} onChange={set('pinned')} hint={t('form.pinnedHint')} />
        <Checkbox label={t('form.mail')} name="mail" checked={values.mail} onChange={set('mail')} hint={t('form.mailHint')} />
        <fieldset css={{ border: 0, margin: 0, padding: 0, display: 'grid', gap: 8, minWidth: 0 }}>
          <legend css={{ fontWeight: 600, marginBottom: 4 }}>{t('form.audience')}</legend>
          <Checkbox label={t('form.everyone')} name="everyone" checked={values.everyone} onChange={set('everyone')} />
          {!values.everyone && (
            <>
              {!mayListRoles && <Alert tone="info">{t('form.rolesHidden')}</Alert>}
              {roles.error && <Alert tone="error">{t('form.rolesFailed')}</Alert>}
              {roles.data?.data.map((role) => (
                <Checkbox key={role.id} label={role.real_name} name={`role_${role.id}`} checked={values.role_ids.includes(role.id)} onChange={toggleRole(role.id)} />
              ))}
              {form.problem('role_ids') && <Alert tone="error">{form.problem('role_ids')}</Alert>}
            </>
          )}
        </fieldset>
        <fieldset css={{ border: 0, margin: 0, padding: 0, display: 'grid', gap: 8, minWidth: 0 }}>
          <legend css={{ fontWeight: 600, marginBottom: 4 }}>{t('form.schedule')}</legend>
          <Checkbox label={t('form.published')} name="published" checked={values.published} onChange={set('published')} hint={t('form.publishedHint')} />
          {values.published && (
            <div css={{ display: 'grid', gap: 12, [theme.breakpoints.sm]: { gridTemplateColumns: '1fr 1fr' } }}>
              <TextField type="datetime-local" label={t('form.publishAt')} {...form.field('publish_local')} hint={t('form.publishAtHint')} />
              <TextField type="datetime-local" label={t('form.expireAt')} {...form.field('expire_local')} hint={t('form.expireAtHint')} />
            </div>
          )}
        </fieldset>
        <div>
          <Button type="submit">{submitText}</Button>
        </div>
      </Form>
    </Card>
  );
}
