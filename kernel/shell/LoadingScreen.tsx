// What shows while the panel starts or a part of it loads: a spinner on the dark background (the same
// look as the static one in index.html, so there is no flash between the two).
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../sdk/client/ui/feedback';
import { theme } from '../../sdk/client/ui/theme';

export function LoadingScreen() {
  const { t } = useTranslation('kernel');
  return (
    <div role="status" aria-live="polite" css={{ minHeight: '100vh', display: 'grid', placeItems: 'center', background: theme.colors.background, color: theme.colors.muted }}>
      <div css={{ display: 'grid', justifyItems: 'center', gap: 12 }}>
        <Spinner size={32} />
        <span css={{ fontSize: theme.font.size.sm }}>{t('loading')}</span>
      </div>
    </div>
  );
}
