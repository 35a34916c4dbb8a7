// Under the auth card: the switch between login and registration, then the legal pages.
import { Link, theme, useTranslation } from '@orepanel/sdk';
import type { ReactNode } from 'react';

const linkStyle = {
  color: theme.colors.primaryHover,
  fontWeight: theme.font.weight.semibold,
  textDecoration: 'none',
  '&:hover': { textDecoration: 'underline' },
  '&:focus-visible': { outline: 'none', boxShadow: theme.focusRing, borderRadius: 4 },
} as const;

const legalLinkStyle = {
  color: theme.colors.subtle,
  fontSize: theme.font.size.sm,
  textDecoration: 'none',
  '&:hover': { color: theme.colors.muted, textDecoration: 'underline' },
  '&:focus-visible': { outline: 'none', boxShadow: theme.focusRing, borderRadius: 4 },
} as const;

export interface AuthSwitch {
  /** e.g. "New here?" */
  question: string;
  /** e.g. "Create an account" */
  label: string;
  to: string;
}

export function AuthFooter({ switchTo }: { switchTo?: AuthSwitch | null }): ReactNode {
  const { t } = useTranslation('auth');
  return (
    <div css={{ display: 'grid', gap: 16 }}>
      {switchTo && (
        <p css={{ margin: 0 }}>
          {switchTo.question}{' '}
          <Link to={switchTo.to} css={linkStyle}>
            {switchTo.label}
          </Link>
        </p>
      )}
      <nav aria-label={t('footer.legal')} css={{ display: 'flex', justifyContent: 'center', flexWrap: 'wrap', gap: '4px 16px' }}>
        <Link to="/privacy-policy" css={legalLinkStyle}>
          {t('footer.privacy')}
        </Link>
        <Link to="/terms-of-service" css={legalLinkStyle}>
          {t('footer.terms')}
        </Link>
      </nav>
    </div>
  );
}
