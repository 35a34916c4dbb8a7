// The rest of the customer's card beside a ticket (GET /admin/tickets/:id/customer): name, e-mail,
// coins, the server the ticket names and the customer's servers with their links on the game panel,
// and the support PIN check (staff type the PIN the caller reads out; the answer says only whether it
// matches). Its own request, so a slow or failing card never holds the conversation up.
import { Badge, Button, Form, http, Icon, LoadError, Spinner, TextField, theme, useApi, useTranslation } from '@orepanel/sdk';
import { useState } from 'react';
import { useStaffErrorText } from './staff-errors';

const c = theme.colors;

export interface StaffServer {
  id: number;
  name: string;
  identifier: string;
  status: string;
  panel_url: string | null;
}

export interface CustomerCardView {
  customer: {
    uuid: string;
    username: string;
    first_name: string;
    last_name: string;
    email: string;
    role_name: string | null;
    role_color: string | null;
    coins: number;
    has_pin: boolean;
  } | null;
  linked_server: { id: number; owned: boolean; server: StaffServer | null } | null;
  /** null while the servers plugin is off */
  servers: StaffServer[] | null;
}

export const customerCardUrl = {
  card: (ticketId: number) => `/api/admin/tickets/${ticketId}/customer`,
  pin: (ticketId: number) => `/api/admin/tickets/${ticketId}/customer/pin`,
};

const PIN = /^[0-9]{6}$/;

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div css={{ display: 'grid', gap: 2, minWidth: 0 }}>
      <dt css={{ color: c.muted, fontSize: theme.font.size.xs }}>{label}</dt>
      <dd css={{ margin: 0, overflowWrap: 'anywhere' }}>{children}</dd>
    </div>
  );
}

function ServerItem({ server }: { server: StaffServer }) {
  const { t } = useTranslation('tickets');
  return (
    <span css={{ display: 'inline-flex', flexWrap: 'wrap', alignItems: 'center', gap: 6, minWidth: 0 }}>
      {server.panel_url ? (
        <a
          href={server.panel_url}
          target="_blank"
          rel="noopener noreferrer"
          aria-label={t('linkedServer.openPanel', { name: server.name })}
          css={{ color: c.primaryHover, display: 'inline-flex', alignItems: 'center', gap: 4, overflowWrap: 'anywhere' }}
        >
          {server.name}
          <Icon name="external" size={14} />
        </a>
      ) : (
        <span>{server.name}</span>
      )}
      <span css={{ color: c.muted, fontSize: theme.font.size.sm }}>({server.identifier})</span>
      {server.status === 'suspended' && <Badge tone="warning">{t('linkedServer.suspended')}</Badge>}
    </span>
  );
}

function PinCheck({ ticketId, hasPin }: { ticketId: number; hasPin: boolean }) {
  const { t } = useTranslation('tickets');
  const errorText = useStaffErrorText();
  const [pin, setPin] = useState('');
  const [result, setResult] = useState<boolean | null>(null);
  const [problem, setProblem] = useState<string | undefined>();
  if (!hasPin) return <p css={{ margin: 0, color: c.muted, fontSize: theme.font.size.sm }}>{t('linkedServer.pin.none')}</p>;
  return (
    <Form
      errorText={errorText}
      noValidate
      onSubmit={async () => {
        setResult(null);
        if (!PIN.test(pin)) {
          setProblem(t('linkedServer.pin.invalid'));
          return;
        }
        const { matches } = await http.post<{ matches: boolean }>(customerCardUrl.pin(ticketId), { pin });
        setResult(matches);
      }}
    >
      <div css={{ display: 'flex', flexWrap: 'wrap', gap: 8, alignItems: 'flex-end' }}>
        <div css={{ flex: '1 1 120px', minWidth: 0 }}>
          <TextField
            label={t('linkedServer.pin.label')}
            name="pin"
            value={pin}
            onChange={(value) => {
              setPin(value.replace(/\D/g, '').slice(0, 6));
              setProblem(undefined);
              setResult(null);
            }}
            error={problem}
            inputMode="numeric"
            autoComplete="off"
            maxLength={6}
            hint={t('linkedServer.pin.hint')}
          />
        </div>
        <Button type="submit" variant="secondary">
          {t('linkedServer.pin.check')}
        </Button>
      </div>
      {result !== null && (
        <p role="status" css={{ margin: 0, color: result ? c.success : c.danger, fontWeight: theme.font.weight.semibold }}>
          {result ? t('linkedServer.pin.match') : t('linkedServer.pin.noMatch')}
        </p>
      )}
    </Form>
  );
}

export function CustomerDetails({ ticketId }: { ticketId: number }) {
  const { t } = useTranslation('tickets');
  const card = useApi<CustomerCardView>(customerCardUrl.card(ticketId));
  if (card.error && !card.data) return <LoadError title={t('linkedServer.loadFailed')} error={card.error} onRetry={card.reload} />;
  if (!card.data) return <Spinner label={t('linkedServer.loading')} />;
  const { customer, linked_server: linked, servers } = card.data;
  return (
    <div css={{ display: 'grid', gap: 12, minWidth: 0 }}>
      {customer && (
        <dl css={{ display: 'grid', gap: 8, margin: 0 }}>
          <Row label={t('linkedServer.name')}>{`${customer.first_name} ${customer.last_name}`.trim() || '—'}</Row>
          <Row label={t('linkedServer.email')}>
            <a href={`mailto:${customer.email}`} css={{ color: c.primaryHover }}>
              {customer.email}
            </a>
          </Row>
          <Row label={t('linkedServer.coins')}>{customer.coins.toLocaleString()}</Row>
        </dl>
      )}
      {linked && (
        <Row label={t('linkedServer.linked')}>
          {linked.server ? <ServerItem server={linked.server} /> : t('linkedServer.unknown', { id: linked.id })}
          {!linked.owned && linked.server && (
            <>
              {' '}
              <Badge tone="warning">{t('linkedServer.notOwned')}</Badge>
            </>
          )}
        </Row>
      )}
      <div css={{ display: 'grid', gap: 4, minWidth: 0 }}>
        <span css={{ color: c.muted, fontSize: theme.font.size.xs }}>{t('linkedServer.servers')}</span>
        {servers === null ? (
          <span css={{ color: c.muted, fontSize: theme.font.size.sm }}>{t('linkedServer.serversOff')}</span>
        ) : servers.length === 0 ? (
          <span css={{ color: c.muted, fontSize: theme.font.size.sm }}>{t('linkedServer.noServers')}</span>
        ) : (
          <ul aria-label={t('linkedServer.servers')} css={{ display: 'grid', gap: 4, margin: 0, padding: 0, listStyle: 'none' }}>
            {servers.map((server) => (
              <li key={server.id}>
                <ServerItem server={server} />
              </li>
            ))}
          </ul>
        )}
      </div>
      {customer && <PinCheck ticketId={ticketId} hasPin={customer.has_pin} />}
    </div>
  );
}
