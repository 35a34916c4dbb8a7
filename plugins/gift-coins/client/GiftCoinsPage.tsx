// /profile/:uuid/gift-coins: who the coins go to, then the gift form. The server says whether this
// account may receive a gift at all (unknown, yourself, banned) before the form is shown.
import { Avatar, Button, Card, initialsOf, Page, ResourceState, theme, useApi, useParams, useTranslation } from '@orepanel/sdk';
import { recipientUrl, type GiftOptions, type GiftRecipient } from './api';
import { GiftForm } from './GiftForm';

function RecipientCard({ recipient }: { recipient: GiftRecipient }) {
  const { t } = useTranslation('gift-coins');
  return (
    <Card title={t('recipient.title')}>
      <div css={{ display: 'flex', alignItems: 'center', gap: 12, minWidth: 0 }}>
        <Avatar src={recipient.avatar} initials={initialsOf(null, null, recipient.username)} size={48} />
        <div css={{ display: 'grid', minWidth: 0 }}>
          <strong aria-label={t('recipient.name')} css={{ fontSize: theme.font.size.lg, overflowWrap: 'anywhere' }}>
            {recipient.username}
          </strong>
          <code css={{ fontSize: theme.font.size.sm, color: theme.colors.muted, overflowWrap: 'anywhere' }}>{recipient.uuid}</code>
        </div>
      </div>
    </Card>
  );
}

export default function GiftCoinsPage() {
  const { t } = useTranslation('gift-coins');
  const { uuid = '' } = useParams();
  const loaded = useApi<GiftOptions>(recipientUrl(uuid));
  return (
    <Page
      title={loaded.data ? t('titleFor', { username: loaded.data.recipient.username }) : t('title')}
      description={t('description')}
      actions={
        <Button variant="secondary" to={`/profile/${encodeURIComponent(uuid)}`}>
          {t('backToProfile')}
        </Button>
      }
    >
      <ResourceState data={loaded.data} loading={loaded.loading} error={loaded.error} reload={loaded.reload} errorTitle={t('loadFailed')} lines={4}>
        {(options) => (
          <div css={{ display: 'grid', gap: 16, gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 320px), 1fr))', alignItems: 'start' }}>
            <RecipientCard recipient={options.recipient} />
            <GiftForm options={options} />
          </div>
        )}
      </ResourceState>
    </Page>
  );
}
