// spec §1: the six interface languages. Switching loads the kernel's and every plugin's catalogue for
// the new language first (kernel services), then stores the choice under `locale`.
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { changeLanguage, currentLanguage, LANGUAGE_NAMES } from '../../sdk/client/i18n';
import { Icon } from '../../sdk/client/ui/icons';
import { theme } from '../../sdk/client/ui/theme';
import { LANGUAGES, type Language } from '../../sdk/types';

const c = theme.colors;

export function LanguagePicker({ compact = false }: { compact?: boolean }) {
  const { t, i18n } = useTranslation('kernel');
  const id = useId();
  // re-rendered by useTranslation when the language changes
  const language = i18n.resolvedLanguage ? currentLanguage() : 'en';
  return (
    <label
      htmlFor={id}
      title={t('language.label')}
      css={{
        display: 'inline-flex',
        alignItems: 'center',
        gap: 6,
        height: 36,
        padding: '0 8px',
        borderRadius: theme.radii.md,
        border: `1px solid ${c.border}`,
        background: compact ? `${c.surface}cc` : c.surface,
        color: c.muted,
        cursor: 'pointer',
        '&:focus-within': { boxShadow: theme.focusRing },
      }}
    >
      <Icon name="language" size={18} />
      <span css={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}>{t('language.label')}</span>
      <select
        id={id}
        data-testid="language-picker"
        value={language}
        onChange={(event) => {
          void changeLanguage(event.target.value as Language);
        }}
        css={{
          appearance: 'none',
          background: 'transparent',
          border: 0,
          color: c.text,
          font: 'inherit',
          fontSize: theme.font.size.sm,
          cursor: 'pointer',
          outline: 'none',
          paddingRight: 2,
          '& option': { background: c.surface, color: c.text },
        }}
      >
        {LANGUAGES.map((code) => (
          <option key={code} value={code}>
            {LANGUAGE_NAMES[code]}
          </option>
        ))}
      </select>
    </label>
  );
}
