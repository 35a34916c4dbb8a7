// A ticket's linked server, on the customer's side: the create form's optional choice among their own
// servers (none offered while they have none or the servers plugin is off: the field is not shown),
// and the line on the ticket naming the server it is about.
import { Icon, Select, theme, useApi, useTranslation } from '@orepanel/sdk';

export interface ServerChoice {
  id: number;
  name: string;
  identifier: string;
}

export const linkedServerUrl = {
  choices: () => '/api/user/tickets/servers',
  ofTicket: (ticketId: number | string) => `/api/user/tickets/${encodeURIComponent(String(ticketId))}/server`,
};

export interface ServerSelectProps {
  name: string;
  value: string;
  onChange(value: string): void;
  error: string | undefined;
}

/** The form field: '' is "no particular server"; hidden until there is something to choose. */
export function ServerSelect(props: ServerSelectProps) {
  const { t } = useTranslation('tickets');
  const { data } = useApi<{ available: boolean; data: ServerChoice[] }>(linkedServerUrl.choices());
  // a server the server refused (gone meanwhile) keeps its error visible even with no choices left
  if (!data?.available || (data.data.length === 0 && !props.error)) return null;
  return (
    <Select
      label={t('linkedServer.field')}
      {...props}
      options={[{ value: '', label: t('linkedServer.none') }, ...data.data.map((s) => ({ value: String(s.id), label: `${s.name} (${s.identifier})` }))]}
      hint={t('linkedServer.hint')}
    />
  );
}

/** The line under a ticket's title naming its server; nothing when it names none. */
export function LinkedServerLine({ ticketId }: { ticketId: number }) {
  const { t } = useTranslation('tickets');
  const { data } = useApi<{ server: ServerChoice | null }>(linkedServerUrl.ofTicket(ticketId));
  const server = data?.server;
  if (!server) return null;
  return (
    <p css={{ margin: 0, display: 'flex', alignItems: 'center', gap: 6, color: theme.colors.muted, fontSize: theme.font.size.sm, overflowWrap: 'anywhere' }}>
      <Icon name="server" size={16} />
      <span>
        {t('linkedServer.about')}: <strong css={{ color: theme.colors.text }}>{server.name}</strong> ({server.identifier})
      </span>
    </p>
  );
}
