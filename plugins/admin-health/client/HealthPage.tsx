// /mc-admin/health (issues 3, 5): the database, the rate-limit store, mail, the Pterodactyl panel and
// each scheduled job's last run and the instance that ran it, and the instances serving this database
// (issue 17), as the server measures them when asked; refresh asks again.
import { Alert, Badge, Button, Card, DataTable, Grid, Page, theme, useApi, useTranslation, type DataColumn, ResourceState, useDateTime } from '@orepanel/sdk';
import { useMemo, type ReactNode } from 'react';
import { healthUrl, type AdminHealth, type HealthInstance } from './health-api';

type Job = AdminHealth['jobs'][number];

function InstanceBadge({ instance }: { instance: HealthInstance }) {
  const { t } = useTranslation('admin-health');
  if (instance.stopped_at) return <Badge tone="neutral">{t('health.instances.stopped')}</Badge>;
  return instance.alive ? <Badge tone="success">{t('health.instances.alive')}</Badge> : <Badge tone="danger">{t('health.instances.silent')}</Badge>;
}

function StateBadge({ ok }: { ok: boolean | null }) {
  const { t } = useTranslation('admin-health');
  if (ok === null) return <Badge tone="neutral">{t('health.notRun')}</Badge>;
  return ok ? <Badge tone="success">{t('health.ok')}</Badge> : <Badge tone="danger">{t('health.failed')}</Badge>;
}

function Facts({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl css={{ display: 'grid', gridTemplateColumns: 'auto 1fr', gap: '6px 16px', margin: 0 }}>
      {rows.map(([label, value]) => (
        <div key={label} css={{ display: 'contents' }}>
          <dt css={{ color: theme.colors.muted }}>{label}</dt>
          <dd css={{ margin: 0, textAlign: 'end', fontVariantNumeric: 'tabular-nums' }}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export default function HealthPage() {
  const { t } = useTranslation('admin-health');
  const health = useApi<AdminHealth>(healthUrl.health());
  const dateTime = useDateTime();

  const columns = useMemo<DataColumn<Job>[]>(
    () => [
      { id: 'name', header: t('health.jobs.name'), primary: true, cell: (job) => <code css={{ fontFamily: theme.font.mono }}>{job.name}</code> },
      { id: 'state', header: t('health.jobs.state'), cell: (job) => <StateBadge ok={job.ok} /> },
      { id: 'last', header: t('health.jobs.lastRun'), cell: (job) => (job.last_run_at ? dateTime(job.last_run_at) : t('health.jobs.never')) },
      {
        id: 'instance',
        header: t('health.jobs.instance'),
        cell: (job) => (job.instance ? <code css={{ fontFamily: theme.font.mono, overflowWrap: 'anywhere' }}>{job.instance}</code> : '—'),
      },
      { id: 'message', header: t('health.jobs.message'), cell: (job) => <span css={{ overflowWrap: 'anywhere' }}>{job.message ?? '—'}</span> },
    ],
    [t, dateTime],
  );

  const instanceColumns = useMemo<DataColumn<HealthInstance>[]>(
    () => [
      {
        id: 'id',
        header: t('health.instances.id'),
        primary: true,
        cell: (instance) => (
          <span>
            <code css={{ fontFamily: theme.font.mono, overflowWrap: 'anywhere' }}>{instance.id}</code>
            {instance.self && <span css={{ color: theme.colors.muted }}> · {t('health.instances.self')}</span>}
          </span>
        ),
      },
      { id: 'state', header: t('health.instances.state'), cell: (instance) => <InstanceBadge instance={instance} /> },
      { id: 'version', header: t('health.instances.version'), cell: (instance) => instance.version },
      { id: 'started', header: t('health.instances.started'), cell: (instance) => dateTime(instance.started_at) },
      { id: 'heartbeat', header: t('health.instances.heartbeat'), cell: (instance) => dateTime(instance.heartbeat_at) },
    ],
    [t, dateTime],
  );

  return (
    <Page
      title={t('health.title')}
      description={t('health.description')}
      actions={
        <Button variant="secondary" icon="clock" loading={health.loading} onClick={() => health.reload()}>
          {t('health.refresh')}
        </Button>
      }
    >
      <ResourceState data={health.data} loading={health.loading} error={health.error} reload={health.reload} lines={8}>
        {(h) => (
          <div css={{ display: 'grid', gap: 16 }}>
            {/* a failed refresh keeps the last answer on screen: say it is not current */}
            {health.error && !health.loading && <Alert tone="error">{health.error.message}</Alert>}
            <Grid min={240} gap={16}>
              <Card title={t('health.database.title')} actions={<StateBadge ok={h.database.ok} />}>
                <Facts
                  rows={[
                    [t('health.database.dialect'), h.database.dialect],
                    [t('health.database.latency'), h.database.latency_ms === null ? '—' : t('health.ms', { value: h.database.latency_ms })],
                  ]}
                />
              </Card>
              <Card title={t('health.cache.title')} actions={<StateBadge ok={h.cache.ok} />}>
                <Facts rows={[[t('health.cache.kind'), h.cache.kind === 'redis' ? t('health.cache.redis') : t('health.cache.memory')]]} />
              </Card>
              <Card
                title={t('health.mail.title')}
                actions={h.mail.enabled ? <Badge tone="success">{t('health.mail.enabled')}</Badge> : <Badge tone="warning">{t('health.mail.disabled')}</Badge>}
              >
                <Facts
                  rows={[
                    [t('health.mail.pending'), h.mail.queue ? t('common.count', { value: h.mail.queue.pending }) : '—'],
                    [
                      t('health.mail.failed'),
                      h.mail.queue ? (
                        h.mail.queue.failed > 0 ? (
                          <Badge tone="danger">{t('common.count', { value: h.mail.queue.failed })}</Badge>
                        ) : (
                          t('common.count', { value: 0 })
                        )
                      ) : (
                        '—'
                      ),
                    ],
                  ]}
                />
              </Card>
              <Card title={t('health.panel.title')} actions={h.panel.configured ? <StateBadge ok={h.panel.ok} /> : <Badge tone="warning">{t('health.panel.notConfigured')}</Badge>}>
                <Facts
                  rows={[
                    [t('health.panel.latency'), h.panel.latency_ms === null ? '—' : t('health.ms', { value: h.panel.latency_ms })],
                    [t('health.panel.problem'), h.panel.ok === false ? <span css={{ overflowWrap: 'anywhere' }}>{h.panel.message ?? h.panel.code}</span> : '—'],
                  ]}
                />
              </Card>
            </Grid>
            <Card title={t('health.instances.title')} flush>
              <DataTable
                caption={t('health.instances.title')}
                columns={instanceColumns}
                rows={h.instances}
                rowKey={(instance) => instance.id}
                empty={{ icon: 'clock', title: t('health.instances.empty') }}
              />
            </Card>
            <Card title={t('health.jobs.title')} flush>
              <DataTable caption={t('health.jobs.title')} columns={columns} rows={h.jobs} rowKey={(job) => job.name} empty={{ icon: 'clock', title: t('health.jobs.empty') }} />
            </Card>
          </div>
        )}
      </ResourceState>
    </Page>
  );
}
