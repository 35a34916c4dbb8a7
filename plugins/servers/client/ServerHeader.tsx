// The server a page is about, at the top of the update, renew and delete pages.
import { Card, theme, useTranslation } from '@orepanel/sdk';
import type { ServerView } from '../shared/api';
import { ResourceSummary } from './ResourceSummary';
import { ExpiryText, ServerStatusBadge } from './server-status';

export function ServerHeader({ server }: { server: ServerView }) {
  const { t } = useTranslation('servers');
  const where = [server.location?.name, server.egg?.name].filter(Boolean).join(' · ');
  return (
    <Card>
      <div css={{ display: 'grid', gap: 8 }}>
        <div css={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 8 }}>
          <strong css={{ fontSize: theme.font.size.lg, overflowWrap: 'anywhere' }}>{server.name}</strong>
          <ServerStatusBadge server={server} />
          <code css={{ fontFamily: theme.font.mono, color: theme.colors.subtle, fontSize: theme.font.size.sm }}>{server.identifier}</code>
        </div>
        {where && <div css={{ color: theme.colors.muted, fontSize: theme.font.size.sm }}>{where}</div>}
        <ResourceSummary resources={server.resources} broken={server.broken_fields} />
        <div css={{ fontSize: theme.font.size.sm }}>
          <span css={{ color: theme.colors.muted }}>{t('server.expiry')}: </span>
          <ExpiryText expiresAt={server.expires_at} />
        </div>
      </div>
    </Card>
  );
}
