// The shell.banner slot: pinned warning and danger announcements for me, at the top of every page,
// each closable (dismissed for this account on the server, so it stays closed on every device). Asked
// again on a navigation at most once a minute, so one published meanwhile shows without reloading the
// panel (a peer's banners needed a page refresh to appear) while a user clicking through pages does
// not spend the rate limit on banners.
import { Alert, http, Link, useApi, useLocation, useTranslation } from '@orepanel/sdk';
import { useEffect, useRef, useState } from 'react';
import { path, severityAlert, url, type Banner } from './api';

export const BANNER_REFRESH_MS = 60_000;

export default function AnnouncementBanners() {
  const { t } = useTranslation('announcements');
  const banners = useApi<{ data: Banner[] }>(url.banners);
  const [closed, setClosed] = useState<readonly number[]>([]);
  const { pathname } = useLocation();
  const shownAt = useRef(pathname);
  const askedAt = useRef(Date.now());
  const { reload } = banners;
  useEffect(() => {
    if (shownAt.current === pathname) return;
    shownAt.current = pathname;
    if (Date.now() - askedAt.current < BANNER_REFRESH_MS) return;
    askedAt.current = Date.now();
    reload();
  }, [pathname, reload]);
  // a banner is extra: while loading or when it fails the page shows nothing more
  const shown = banners.data?.data.filter((banner) => !closed.includes(banner.id)) ?? [];
  if (shown.length === 0) return null;
  const dismiss = (id: number) => {
    setClosed((ids) => [...ids, id]);
    void http.post(url.dismiss(id)).catch(() => undefined);
  };
  return (
    <section css={{ display: 'grid', gap: 8 }} aria-label={t('banner.label')}>
      {shown.map((banner) => (
        <Alert key={banner.id} tone={severityAlert[banner.severity]} title={banner.title} onClose={() => dismiss(banner.id)}>
          {banner.summary && <span css={{ marginRight: 8 }}>{banner.summary}</span>}
          <Link to={path.detail(banner.id)}>{t('banner.more')}</Link>
        </Alert>
      ))}
    </section>
  );
}
