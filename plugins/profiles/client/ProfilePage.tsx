// /profile/{uuid}: a user's public profile — background, avatar, name, role (and the Early Supporter
// badge of one of the panel's first accounts), public numbers and their
// Minecraft skin in 3D. A "Gift coins" button opens the gift-coins plugin's form for this user when
// gifts are on and it is someone else's profile; on your own profile, a link to edit it.
import {
  Avatar,
  Button,
  Card,
  EarlySupporterBadge,
  EmptyStateCard,
  Grid,
  Page,
  ResourceState,
  RoleBadge,
  StatCard,
  initialsOf,
  isSettingEnabled,
  theme,
  useApi,
  useParams,
  useRouteAvailable,
  useSetting,
  useTranslation,
} from '@orepanel/sdk';
import { USER_UUID_PATTERN, type PublicProfile } from '../shared/people';
import { profileUrl } from './api';
import { SkinViewer } from './SkinViewer';

const c = theme.colors;
const USER_UUID = new RegExp(USER_UUID_PATTERN);

/** A CSS url() of an address (http/https, checked where it was saved) that no quote can break out of. */
function cssUrl(address: string): string {
  return `url("${address.replace(/["\\\n\r]/g, (ch) => encodeURIComponent(ch))}")`;
}

function ProfileHeader({ profile }: { profile: PublicProfile }) {
  const { t } = useTranslation('profiles');
  const defaultBackground = useSetting('default_bg');
  const background = profile.background || (typeof defaultBackground === 'string' && defaultBackground) || null;
  const giftPath = `/profile/${profile.uuid}/gift-coins`;
  const giftsOn = isSettingEnabled(useSetting('allow_coins_sharing'));
  const giftPage = useRouteAvailable(giftPath);
  const accountPage = useRouteAvailable('/account');

  return (
    <Card flush>
      <div
        role="presentation"
        css={{
          height: 160,
          borderRadius: `${theme.radii.lg} ${theme.radii.lg} 0 0`,
          backgroundColor: c.surfaceRaised,
          backgroundImage: background ? cssUrl(background) : `linear-gradient(135deg, ${c.primarySoft}, ${c.surfaceRaised})`,
          backgroundSize: 'cover',
          backgroundPosition: 'center',
        }}
      />
      <div css={{ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-end', gap: 16, padding: '0 20px 20px', marginTop: -44 }}>
        <span css={{ borderRadius: '50%', border: `4px solid ${c.surface}`, display: 'inline-flex' }}>
          <Avatar src={profile.avatar} initials={initialsOf(null, null, profile.username)} size={88} />
        </span>
        <div css={{ display: 'grid', gap: 6, flex: '1 1 200px', minWidth: 0 }}>
          <h2 css={{ margin: 0, fontSize: theme.font.size.xl, overflowWrap: 'anywhere' }}>{profile.username}</h2>
          <div css={{ display: 'flex', flexWrap: 'wrap', gap: 8, alignItems: 'center', color: c.muted, fontSize: theme.font.size.sm }}>
            <RoleBadge name={profile.role.name} color={profile.role.color} />
            {profile.early_supporter && <EarlySupporterBadge />}
            <span>{t('profile.memberSince', { value: new Date(profile.member_since) })}</span>
          </div>
        </div>
        <div css={{ display: 'flex', gap: 8 }}>
          {!profile.self && giftsOn && giftPage && (
            <Button to={giftPath} icon="gift">
              {t('profile.gift')}
            </Button>
          )}
          {profile.self && accountPage && (
            <Button to="/account" variant="secondary" icon="user">
              {t('profile.edit')}
            </Button>
          )}
        </div>
      </div>
    </Card>
  );
}

export default function ProfilePage() {
  const { t } = useTranslation('profiles');
  const { uuid = '' } = useParams();
  // an address that cannot name a user is not worth a request
  const wellFormed = USER_UUID.test(uuid);
  const { data, loading, error, reload } = useApi<PublicProfile>(wellFormed ? profileUrl(uuid) : null);

  if (!wellFormed) {
    return (
      <Page title={t('profile.title')}>
        <EmptyStateCard icon="user" title={t('errors.USER_NOT_FOUND')} />
      </Page>
    );
  }

  return (
    <Page title={data ? t('profile.titleOf', { username: data.username }) : t('profile.title')}>
      <ResourceState data={data} loading={loading} error={error} reload={reload} errorTitle={t('profile.loadFailed')}>
        {(profile) => (
          <div css={{ display: 'grid', gap: 16 }}>
            <ProfileHeader profile={profile} />
            <div css={{ display: 'grid', gap: 16, gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 300px), 1fr))', alignItems: 'start' }}>
              <Grid min={180}>
                <StatCard icon="clock" label={t('stats.minutesAfk')} value={t('number', { value: profile.stats.minutes_afk })} />
                <StatCard icon="users" label={t('stats.referrals')} value={t('number', { value: profile.stats.referrals })} />
                <StatCard icon="server" label={t('stats.servers')} value={t('number', { value: profile.stats.servers })} />
              </Grid>
              <Card title={t('skin.title')}>
                <SkinViewer skinUrl={profile.skin_url} username={profile.username} />
              </Card>
            </div>
          </div>
        )}
      </ResourceState>
    </Page>
  );
}
