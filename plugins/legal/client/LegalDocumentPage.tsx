// One legal document on its own full page (layout "bare": readable without logging in). The text is
// the host's (GET /api/legal/<document>), or the generated default while the host wrote none.
import { Alert, AppMark, Button, Link, Skeleton, theme, useApi, useSession, useSettings, useTranslation } from '@orepanel/sdk';
import { useMemo } from 'react';
import { defaultDocument } from './default-documents';
import { LEGAL_DOCUMENTS, type LegalDocumentName, type LegalDocumentResponse } from './documents';
import { LegalBlocks } from './LegalBlocks';
import { parseLegalText } from './legal-text';

const c = theme.colors;

function validDate(value: string | null | undefined): Date | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

export function LegalDocumentPage({ document }: { document: LegalDocumentName }) {
  const { t } = useTranslation('legal');
  const info = LEGAL_DOCUMENTS[document];
  const other = LEGAL_DOCUMENTS[info.other];
  const title = t(info.titleKey);
  const settings = useSettings();
  const { loggedIn } = useSession();
  const { data, error, loading, reload } = useApi<LegalDocumentResponse>(info.api);

  const hostText = data?.content.trim() ?? '';
  const blocks = useMemo(() => (data ? (hostText ? parseLegalText(hostText) : defaultDocument(document, t, settings)) : []), [data, hostText, document, t, settings]);
  const updated = hostText ? validDate(data?.updated_at) : null;

  const back = loggedIn ? { to: '/dashboard', label: t('back.dashboard') } : { to: '/auth/login', label: t('back.login') };

  return (
    <main css={{ minHeight: ['100vh', '100dvh'], background: c.background, padding: '20px 16px 48px', [theme.breakpoints.sm]: { padding: '32px 24px 64px' } }}>
      <div css={{ maxWidth: 800, margin: '0 auto', display: 'grid', gap: 20 }}>
        {/* the top right stays free: the kernel's language picker floats there on bare pages */}
        <header css={{ display: 'flex', alignItems: 'center', minHeight: 40 }}>
          <Link to={back.to} css={{ textDecoration: 'none', minWidth: 0, borderRadius: theme.radii.md, '&:focus-visible': { outline: 'none', boxShadow: theme.focusRing } }}>
            <AppMark size={34} />
          </Link>
        </header>

        <article
          aria-busy={loading || undefined}
          css={{
            background: c.surface,
            border: `1px solid ${c.border}`,
            borderRadius: theme.radii.lg,
            boxShadow: theme.shadows.md,
            padding: '24px 20px',
            [theme.breakpoints.sm]: { padding: '40px 48px' },
          }}
        >
          <h1 css={{ margin: 0, fontSize: theme.font.size.xxl, fontWeight: theme.font.weight.bold, color: c.text, lineHeight: 1.25 }}>{title}</h1>
          {updated && (
            <p css={{ margin: '8px 0 0', color: c.muted, fontSize: theme.font.size.sm }}>{t('updated', { date: updated, formatParams: { date: { dateStyle: 'long' } } })}</p>
          )}
          <div css={{ marginTop: 24, borderTop: `1px solid ${c.border}`, paddingTop: 24 }}>
            {error ? (
              <div css={{ display: 'grid', gap: 12, justifyItems: 'start' }}>
                <Alert tone="error">{t('loadError')}</Alert>
                <Button variant="secondary" onClick={reload}>
                  {t('retry')}
                </Button>
              </div>
            ) : loading && !data ? (
              <div css={{ display: 'grid', gap: 28 }}>
                <Skeleton lines={4} height={16} />
                <Skeleton height={22} width="40%" />
                <Skeleton lines={5} height={16} />
              </div>
            ) : (
              <LegalBlocks blocks={blocks} />
            )}
          </div>
        </article>

        <footer css={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: 12 }}>
          <Button variant="secondary" size="sm" to={back.to}>
            {back.label}
          </Button>
          <p css={{ margin: 0, display: 'flex', flexWrap: 'wrap', gap: 6, color: c.subtle, fontSize: theme.font.size.sm }}>
            <span>{t('seeAlso')}</span>
            <Link to={other.path} css={{ color: c.primaryHover, textDecoration: 'none', '&:hover': { textDecoration: 'underline' } }}>
              {t(other.titleKey)}
            </Link>
          </p>
        </footer>
      </div>
    </main>
  );
}
