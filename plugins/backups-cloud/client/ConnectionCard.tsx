// The bucket the copies go to. A root administrator edits it here — the secret is write-only (shown
// as set or not set; left empty it is kept) — and can test it before saving: the list, write, read
// and delete the copies need, each step said in words. Everyone else sees what is set, read-only.
import { Alert, ApiError, Button, Card, Checkbox, Form, http, PasswordField, TextField, theme, useErrorText, useTranslation } from '@orepanel/sdk';
import { useCallback, useState } from 'react';
import { CLOUD_LIMITS } from '../shared/wire';
import { CodedError } from './CodedError';
import { cloudUrl, type CloudConnection, type CloudSettingsInput, type CloudStatus, type ConnectionTest } from './cloud-api';

const c = theme.colors;

interface Draft {
  endpoint: string;
  region: string;
  bucket: string;
  access_key_id: string;
  secret_access_key: string;
  prefix: string;
  force_path_style: boolean;
  auto_upload: boolean;
  keep: string;
}

const draftOf = (connection: CloudConnection): Draft => ({
  endpoint: connection.endpoint,
  region: connection.region,
  bucket: connection.bucket,
  access_key_id: connection.access_key_id ?? '',
  secret_access_key: '',
  prefix: connection.prefix,
  force_path_style: connection.force_path_style,
  auto_upload: connection.auto_upload,
  keep: String(connection.keep),
});

function bodyOf(draft: Draft): CloudSettingsInput {
  const keep = Number(draft.keep);
  return {
    endpoint: draft.endpoint.trim(),
    region: draft.region.trim(),
    bucket: draft.bucket.trim(),
    access_key_id: draft.access_key_id.trim(),
    // empty: keep the stored secret
    ...(draft.secret_access_key !== '' ? { secret_access_key: draft.secret_access_key } : {}),
    prefix: draft.prefix.trim(),
    force_path_style: draft.force_path_style,
    auto_upload: draft.auto_upload,
    keep: Number.isInteger(keep) ? keep : -1,
  };
}

function TestResult({ result }: { result: ConnectionTest }) {
  const { t } = useTranslation('backups-cloud');
  return (
    <Alert tone={result.ok ? 'success' : 'error'} title={result.ok ? t('connection.test.ok') : t('connection.test.failed')}>
      <ul css={{ margin: 0, padding: 0, listStyle: 'none', display: 'grid', gap: 4 }}>
        {result.steps.map((step) => (
          <li key={step.step} css={{ display: 'grid', gap: 2, overflowWrap: 'anywhere' }}>
            <span>
              <span aria-hidden="true">{step.ok ? '✓ ' : '✗ '}</span>
              {t(`connection.test.steps.${step.step}`)}
            </span>
            {step.error && <CodedError error={step.error} />}
          </li>
        ))}
      </ul>
    </Alert>
  );
}

function Summary({ connection, configured }: { connection: CloudConnection; configured: boolean }) {
  const { t } = useTranslation('backups-cloud');
  if (!configured) return <p css={{ margin: 0, color: c.muted }}>{t('connection.notConfiguredReadOnly')}</p>;
  const rows: [string, string][] = [
    [t('connection.fields.endpoint'), connection.endpoint || t('connection.amazon')],
    [t('connection.fields.region'), connection.region],
    [t('connection.fields.bucket'), connection.bucket],
    [t('connection.fields.prefix'), connection.prefix || t('connection.noPrefix')],
    [t('connection.fields.secret'), connection.secret_set ? t('connection.secretSet') : t('connection.secretNotSet')],
    [t('connection.fields.autoUpload'), connection.auto_upload ? t('connection.yes') : t('connection.no')],
    [t('connection.fields.keep'), String(connection.keep)],
  ];
  return (
    <dl
      css={{
        margin: 0,
        display: 'grid',
        gridTemplateColumns: 'minmax(0, max-content) minmax(0, 1fr)',
        gap: '8px 16px',
        '@media (max-width: 520px)': { gridTemplateColumns: 'minmax(0, 1fr)' },
      }}
    >
      {rows.map(([label, value]) => (
        <div key={label} css={{ display: 'contents' }}>
          <dt css={{ color: c.muted }}>{label}</dt>
          <dd css={{ margin: 0, overflowWrap: 'anywhere', '@media (max-width: 520px)': { marginBottom: 6 } }}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export interface ConnectionCardProps {
  status: CloudStatus;
  isRoot: boolean;
  onSaved(status: CloudStatus): void;
}

/** A refused field in words (the server's English words for a field this screen does not know). */
function useFormErrorText(): (error: unknown) => string {
  const { t, i18n } = useTranslation('backups-cloud');
  const fallback = useErrorText();
  return useCallback(
    (error: unknown) => {
      const key = error instanceof ApiError && error.code === 'VALIDATION_ERROR' && error.field ? `fieldErrors.${error.field}` : null;
      return key && i18n.exists(key, { ns: 'backups-cloud' }) ? t(key) : fallback(error);
    },
    [t, i18n, fallback],
  );
}

export function ConnectionCard({ status, isRoot, onSaved }: ConnectionCardProps) {
  const { t } = useTranslation('backups-cloud');
  const errorText = useFormErrorText();
  const [draft, setDraft] = useState<Draft>(() => draftOf(status.connection));
  const [saved, setSaved] = useState(false);
  const [testing, setTesting] = useState(false);
  const [test, setTest] = useState<ConnectionTest | null>(null);
  const [testError, setTestError] = useState<string | null>(null);
  const field =
    <K extends keyof Draft>(key: K) =>
    (value: Draft[K]) => {
      setSaved(false);
      setTest(null);
      setDraft((d) => ({ ...d, [key]: value }));
    };

  if (!isRoot) {
    return (
      <Card title={t('connection.title')}>
        <Summary connection={status.connection} configured={status.configured} />
        <p css={{ margin: '12px 0 0', color: c.muted, fontSize: theme.font.size.sm }}>{t('connection.rootOnly')}</p>
      </Card>
    );
  }

  const runTest = async () => {
    setTesting(true);
    setTest(null);
    setTestError(null);
    try {
      setTest(await http.post<ConnectionTest>(cloudUrl.test(), bodyOf(draft)));
    } catch (error) {
      setTestError(errorText(error));
    } finally {
      setTesting(false);
    }
  };

  return (
    <Card title={t('connection.title')}>
      <Form
        aria-label={t('connection.title')}
        errorText={errorText}
        noValidate
        onSubmit={async () => {
          const next = await http.put<CloudStatus>(cloudUrl.settings(), bodyOf(draft));
          setDraft(draftOf(next.connection));
          setSaved(true);
          onSaved(next);
        }}
      >
        <p css={{ margin: 0, color: c.muted }}>{t('connection.explain')}</p>
        <div css={{ display: 'grid', gap: 16, alignItems: 'start', gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 260px), 1fr))' }}>
          <TextField
            name="endpoint"
            label={t('connection.fields.endpoint')}
            hint={t('connection.hints.endpoint')}
            value={draft.endpoint}
            onChange={field('endpoint')}
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
          />
          <TextField
            name="region"
            label={t('connection.fields.region')}
            hint={t('connection.hints.region')}
            value={draft.region}
            onChange={field('region')}
            autoComplete="off"
            spellCheck={false}
          />
          <TextField
            name="bucket"
            label={t('connection.fields.bucket')}
            hint={t('connection.hints.bucket')}
            value={draft.bucket}
            onChange={field('bucket')}
            autoComplete="off"
            spellCheck={false}
          />
          <TextField
            name="prefix"
            label={t('connection.fields.prefix')}
            hint={t('connection.hints.prefix')}
            value={draft.prefix}
            onChange={field('prefix')}
            autoComplete="off"
            spellCheck={false}
          />
          <TextField
            name="access_key_id"
            label={t('connection.fields.accessKeyId')}
            value={draft.access_key_id}
            onChange={field('access_key_id')}
            autoComplete="off"
            spellCheck={false}
          />
          <PasswordField
            name="secret_access_key"
            label={t('connection.fields.secret')}
            hint={status.connection.secret_set ? t('connection.hints.secretSet') : t('connection.hints.secretNotSet')}
            value={draft.secret_access_key}
            onChange={field('secret_access_key')}
            autoComplete="new-password"
          />
          <TextField
            name="keep"
            type="number"
            min={CLOUD_LIMITS.keep.min}
            max={CLOUD_LIMITS.keep.max}
            label={t('connection.fields.keep')}
            hint={t('connection.hints.keep')}
            value={draft.keep}
            onChange={field('keep')}
          />
        </div>
        <Checkbox
          name="force_path_style"
          label={t('connection.fields.pathStyle')}
          hint={t('connection.hints.pathStyle')}
          checked={draft.force_path_style}
          onChange={field('force_path_style')}
        />
        <Checkbox
          name="auto_upload"
          label={t('connection.fields.autoUpload')}
          hint={t('connection.hints.autoUpload')}
          checked={draft.auto_upload}
          onChange={field('auto_upload')}
        />
        {saved && (
          <Alert tone="success" onClose={() => setSaved(false)}>
            {draft.bucket === '' ? t('connection.switchedOff') : t('connection.saved')}
          </Alert>
        )}
        {testError && (
          <Alert tone="error" onClose={() => setTestError(null)}>
            {testError}
          </Alert>
        )}
        {test && <TestResult result={test} />}
        <div css={{ display: 'flex', flexWrap: 'wrap', gap: 8 }}>
          <Button type="submit">{t('connection.save')}</Button>
          <Button variant="secondary" icon="check" loading={testing} disabled={draft.bucket.trim() === ''} onClick={() => void runTest()}>
            {t('connection.test.button')}
          </Button>
        </div>
      </Form>
    </Card>
  );
}
