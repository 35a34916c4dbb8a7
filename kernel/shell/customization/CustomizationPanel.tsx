// spec §2 App shell: the UI customisation panel the floating gear opens, with three tabs — Transitions,
// UI Components, Performance. Clicking outside (or Escape) closes it. Every control writes the sdk's
// ui store, which saves it (`ui-settings`, `page-transition`) and re-applies it (spec §3).
import { useEffect, useId, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import {
  ANIMATION_STYLES,
  BORDER_RADII,
  PAGE_TRANSITIONS,
  SKIN_VIEWER_LIMITS,
  SLIDER_LIMITS,
  transitionDurationSeconds,
  uiStore,
  type UiSettings,
  type UiSettingsGroup,
} from '../../../sdk/client/stores/ui';
import { MEMORY_CLEANUP_INTERVAL_MS } from '../../performance/memory-cleanup';
import { Icon } from '../../../sdk/client/ui/icons';
import { theme } from '../../../sdk/client/ui/theme';
import { ChoiceList, FixedSetting, Group, Slider, Toggle } from './controls';

const c = theme.colors;
export const CUSTOMIZATION_TABS = ['transitions', 'components', 'performance'] as const;
type Tab = (typeof CUSTOMIZATION_TABS)[number];

function useGroup<G extends UiSettingsGroup>(group: G): [UiSettings[G], (patch: Partial<UiSettings[G]>) => void] {
  const value = uiStore((s) => s.settings[group]);
  const update = uiStore((s) => s.updateSettings);
  return [value, (patch) => update(group, patch)];
}

const percent = (v: number) => `${Math.round(v * 100)}%`;

function TransitionsTab() {
  const { t } = useTranslation('kernel');
  const transition = uiStore((s) => s.pageTransition);
  const setTransition = uiStore((s) => s.setPageTransition);
  const [performance, setPerformance] = useGroup('performance');
  const limits = SLIDER_LIMITS.transitionSpeed;
  return (
    <>
      <ChoiceList label={t('customize.transition')} value={transition} options={PAGE_TRANSITIONS} onChange={setTransition} describe={(o) => t(`transitions.${o}`)} />
      <Slider
        label={t('customize.transitionSpeed')}
        value={performance.transitionSpeed}
        min={limits.min}
        max={limits.max}
        step={limits.step}
        onChange={(v) => setPerformance({ transitionSpeed: v })}
        format={(v) => t('customize.seconds', { value: transitionDurationSeconds(v).toFixed(2) })}
      />
    </>
  );
}

function ComponentsTab() {
  const { t } = useTranslation('kernel');
  const [sidebar, setSidebar] = useGroup('sidebar');
  const [top, setTop] = useGroup('topNavigation');
  const [notifications, setNotifications] = useGroup('notifications');
  const [dropdown, setDropdown] = useGroup('profileDropdown');
  const opacity = SLIDER_LIMITS.backgroundOpacity;
  const animation = (o: (typeof ANIMATION_STYLES)[number]) => t(`animations.${o}`);
  return (
    <>
      <Group title={t('customize.sidebar')}>
        <Toggle label={t('customize.glassEffect')} checked={sidebar.glassEffect} onChange={(v) => setSidebar({ glassEffect: v })} />
        <Toggle label={t('customize.borderGlow')} checked={sidebar.borderGlow} onChange={(v) => setSidebar({ borderGlow: v })} />
        <Toggle label={t('customize.compactMode')} checked={sidebar.compactMode} onChange={(v) => setSidebar({ compactMode: v })} />
        <Toggle label={t('customize.sectionDividers')} checked={sidebar.showSectionDividers} onChange={(v) => setSidebar({ showSectionDividers: v })} />
        <Slider label={t('customize.opacity')} value={sidebar.opacity} {...opacity} onChange={(v) => setSidebar({ opacity: v })} format={percent} />
        <ChoiceList label={t('customize.animation')} value={sidebar.animation} options={ANIMATION_STYLES} onChange={(v) => setSidebar({ animation: v })} describe={animation} />
      </Group>
      <Group title={t('customize.topNavigation')}>
        <Toggle label={t('customize.glassEffect')} checked={top.glass} onChange={(v) => setTop({ glass: v })} />
        <Toggle label={t('customize.borderGlow')} checked={top.glow} onChange={(v) => setTop({ glow: v })} />
        <Toggle label={t('customize.searchBar')} checked={top.showSearchBar} onChange={(v) => setTop({ showSearchBar: v })} />
        <Slider label={t('customize.opacity')} value={top.opacity} {...opacity} onChange={(v) => setTop({ opacity: v })} format={percent} />
      </Group>
      <Group title={t('customize.notifications')} hint={t('customize.notificationsHint')}>
        <Toggle label={t('customize.glassEffect')} checked={notifications.glass} onChange={(v) => setNotifications({ glass: v })} />
        <Toggle label={t('customize.borderGlow')} checked={notifications.glow} onChange={(v) => setNotifications({ glow: v })} />
        <Toggle label={t('customize.showBackground')} checked={notifications.showBackground} onChange={(v) => setNotifications({ showBackground: v })} />
        <Slider label={t('customize.opacity')} value={notifications.opacity} {...opacity} onChange={(v) => setNotifications({ opacity: v })} format={percent} />
        <ChoiceList
          label={t('customize.animation')}
          value={notifications.animation}
          options={ANIMATION_STYLES}
          onChange={(v) => setNotifications({ animation: v })}
          describe={animation}
        />
      </Group>
      <Group title={t('customize.profileDropdown')}>
        <Toggle label={t('customize.backdropBlur')} checked={dropdown.backdropBlur} onChange={(v) => setDropdown({ backdropBlur: v })} />
        <Toggle label={t('customize.glassEffect')} checked={dropdown.glassEffect} onChange={(v) => setDropdown({ glassEffect: v })} />
        <Toggle label={t('customize.borderGlow')} checked={dropdown.borderGlow} onChange={(v) => setDropdown({ borderGlow: v })} />
        <Toggle label={t('customize.showBackground')} checked={dropdown.showBackground} onChange={(v) => setDropdown({ showBackground: v })} />
        <Toggle label={t('customize.showUserBackground')} checked={dropdown.showUserBackground} onChange={(v) => setDropdown({ showUserBackground: v })} />
        <Slider label={t('customize.opacity')} value={dropdown.backgroundOpacity} {...opacity} onChange={(v) => setDropdown({ backgroundOpacity: v })} format={percent} />
        <ChoiceList
          label={t('customize.animation')}
          value={dropdown.animationStyle}
          options={ANIMATION_STYLES}
          onChange={(v) => setDropdown({ animationStyle: v })}
          describe={animation}
        />
        <ChoiceList
          label={t('customize.borderRadius')}
          value={dropdown.borderRadius}
          options={BORDER_RADII}
          onChange={(v) => setDropdown({ borderRadius: v })}
          describe={(o) => o}
        />
      </Group>
      <SkinViewerGroup />
    </>
  );
}

/** spec §3, §9: the skin viewer group; the profile page's 3D skin follows it live. */
function SkinViewerGroup() {
  const { t, i18n } = useTranslation('kernel');
  const [skin, setSkin] = useGroup('skinViewer');
  const number = (v: number) => v.toLocaleString(i18n.language, { maximumFractionDigits: 1 });
  return (
    <Group title={t('customize.skinViewer')} hint={t('customize.skinViewerHint')}>
      <Toggle label={t('customize.walkingAnimation')} checked={skin.walkingAnimation} onChange={(v) => setSkin({ walkingAnimation: v })} />
      <Toggle label={t('customize.autoRotate')} checked={skin.autoRotate} onChange={(v) => setSkin({ autoRotate: v })} />
      <Slider
        label={t('customize.zoom')}
        value={skin.zoom}
        {...SLIDER_LIMITS.zoom}
        onChange={(v) => setSkin({ zoom: v })}
        format={(v) => t('customize.times', { value: number(v) })}
      />
      <Slider
        label={t('customize.animationSpeed')}
        value={skin.animationSpeed}
        {...SKIN_VIEWER_LIMITS.animationSpeed}
        onChange={(v) => setSkin({ animationSpeed: v })}
        format={(v) => t('customize.times', { value: number(v) })}
      />
      <Slider label={t('customize.cameraLight')} value={skin.cameraLight} {...SKIN_VIEWER_LIMITS.cameraLight} onChange={(v) => setSkin({ cameraLight: v })} format={number} />
      <Slider label={t('customize.globalLight')} value={skin.globalLight} {...SKIN_VIEWER_LIMITS.globalLight} onChange={(v) => setSkin({ globalLight: v })} format={number} />
    </Group>
  );
}

function PerformanceTab() {
  const { t } = useTranslation('kernel');
  const [performance, setPerformance] = useGroup('performance');
  const systemReduced = uiStore((s) => s.systemReducedMotion);
  const fps = SLIDER_LIMITS.frameRateLimit;
  return (
    <>
      <Group title={t('customize.groups.motion')}>
        <Toggle
          label={t('customize.reduceMotion')}
          hint={t('customize.reduceMotionHint')}
          checked={performance.reduceMotion}
          onChange={(v) => setPerformance({ reduceMotion: v })}
        />
        {systemReduced && (
          <p role="note" data-testid="system-reduced-motion" css={{ margin: '0 0 8px', fontSize: theme.font.size.xs, color: c.warning }}>
            {t('customize.systemReducedMotion')}
          </p>
        )}
        <Toggle label={t('customize.disableAnimations')} checked={performance.disableAnimations} onChange={(v) => setPerformance({ disableAnimations: v })} />
        <Toggle label={t('customize.backgroundEffects')} checked={performance.backgroundEffects} onChange={(v) => setPerformance({ backgroundEffects: v })} />
        <Slider
          label={t('customize.frameRateLimit')}
          value={performance.frameRateLimit}
          {...fps}
          onChange={(v) => setPerformance({ frameRateLimit: v })}
          format={(v) => t('customize.fps', { value: v })}
        />
        <p css={{ margin: '0 0 8px', fontSize: theme.font.size.xs, color: c.muted }}>{t('customize.frameRateLimitHint')}</p>
      </Group>
      <Group title={t('customize.groups.images')}>
        <Toggle label={t('customize.lazyLoading')} hint={t('customize.lazyLoadingHint')} checked={performance.lazyLoading} onChange={(v) => setPerformance({ lazyLoading: v })} />
        <Toggle
          label={t('customize.optimizeImages')}
          hint={t('customize.optimizeImagesHint')}
          checked={performance.optimizeImages}
          onChange={(v) => setPerformance({ optimizeImages: v })}
        />
      </Group>
      <Group title={t('customize.groups.loading')}>
        <Toggle
          label={t('customize.preloadCritical')}
          hint={t('customize.preloadCriticalHint')}
          checked={performance.preloadCritical}
          onChange={(v) => setPerformance({ preloadCritical: v })}
        />
        <Toggle
          label={t('customize.networkOptimization')}
          hint={t('customize.networkOptimizationHint')}
          checked={performance.networkOptimization}
          onChange={(v) => setPerformance({ networkOptimization: v })}
        />
        <Toggle
          label={t('customize.enableCaching')}
          hint={t('customize.enableCachingHint')}
          checked={performance.enableCaching}
          onChange={(v) => setPerformance({ enableCaching: v })}
        />
        <FixedSetting label={t('customize.compressAssets')} state={t('customize.alwaysOn')} hint={t('customize.compressAssetsHint')} />
      </Group>
      <Group title={t('customize.groups.memory')}>
        <Toggle
          label={t('customize.memoryOptimization')}
          hint={t('customize.memoryOptimizationHint', { seconds: MEMORY_CLEANUP_INTERVAL_MS / 1000 })}
          checked={performance.memoryOptimization}
          onChange={(v) => setPerformance({ memoryOptimization: v })}
        />
      </Group>
    </>
  );
}

export default function CustomizationPanel({ onClose, ignore }: { onClose: () => void; ignore?: RefObject<HTMLElement | null> }) {
  const { t } = useTranslation('kernel');
  const [tab, setTab] = useState<Tab>('transitions');
  const panel = useRef<HTMLDivElement>(null);
  const reset = uiStore((s) => s.resetSettings);
  const setTransition = uiStore((s) => s.setPageTransition);
  const baseId = useId();

  // spec §2: clicking outside closes it (the gear toggles it itself)
  useEffect(() => {
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node;
      if (panel.current?.contains(target) || ignore?.current?.contains(target)) return;
      onClose();
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    panel.current?.focus();
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [onClose, ignore]);

  // closed while the focus was inside (Escape, its close button): the focus goes back to the gear
  // that opened it, not to the start of the page. A layout cleanup runs before the panel leaves the
  // document, so it can still tell where the focus was.
  useLayoutEffect(() => {
    const node = panel.current;
    return () => {
      if (node?.contains(document.activeElement)) ignore?.current?.focus();
    };
  }, [ignore]);

  return (
    <div
      ref={panel}
      role="dialog"
      aria-modal="false"
      aria-label={t('customize.title')}
      tabIndex={-1}
      data-testid="customization-panel"
      css={{
        position: 'fixed',
        right: 12,
        bottom: 76,
        zIndex: 46,
        width: 'min(420px, calc(100vw - 24px))',
        maxHeight: 'min(640px, calc(100vh - 100px))',
        display: 'flex',
        flexDirection: 'column',
        background: c.surfaceRaised,
        border: `1px solid ${c.borderStrong}`,
        borderRadius: theme.radii.lg,
        boxShadow: theme.shadows.lg,
        outline: 'none',
        overflow: 'hidden',
      }}
    >
      <header css={{ display: 'flex', alignItems: 'center', gap: 8, padding: '12px 14px', borderBottom: `1px solid ${c.border}` }}>
        <Icon name="gear" size={18} />
        <h2 css={{ margin: 0, flex: 1, fontSize: theme.font.size.lg }}>{t('customize.title')}</h2>
        <button
          type="button"
          onClick={onClose}
          aria-label={t('customize.close')}
          css={{
            display: 'grid',
            placeItems: 'center',
            width: 32,
            height: 32,
            border: 0,
            borderRadius: theme.radii.sm,
            background: 'transparent',
            color: c.muted,
            cursor: 'pointer',
            '&:hover': { color: c.text, background: c.surfaceHover },
          }}
        >
          <Icon name="close" size={18} />
        </button>
      </header>
      <div role="tablist" aria-label={t('customize.title')} css={{ display: 'grid', gridTemplateColumns: 'repeat(3, 1fr)', borderBottom: `1px solid ${c.border}` }}>
        {CUSTOMIZATION_TABS.map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            id={`${baseId}-tab-${name}`}
            aria-selected={tab === name}
            aria-controls={`${baseId}-panel-${name}`}
            data-tab={name}
            onClick={() => setTab(name)}
            css={{
              minHeight: 44,
              padding: '8px 6px',
              border: 0,
              borderBottom: `2px solid ${tab === name ? c.primary : 'transparent'}`,
              background: 'transparent',
              color: tab === name ? c.text : c.muted,
              font: 'inherit',
              fontSize: theme.font.size.sm,
              fontWeight: theme.font.weight.semibold,
              cursor: 'pointer',
            }}
          >
            {t(`customize.tabs.${name}`)}
          </button>
        ))}
      </div>
      {/* keyed by tab: another tab starts at its top, not at the scroll of the one before */}
      <div key={tab} role="tabpanel" id={`${baseId}-panel-${tab}`} aria-labelledby={`${baseId}-tab-${tab}`} css={{ padding: '12px 16px', overflowY: 'auto' }}>
        {tab === 'transitions' && <TransitionsTab />}
        {tab === 'components' && <ComponentsTab />}
        {tab === 'performance' && <PerformanceTab />}
      </div>
      <footer css={{ padding: '10px 16px', borderTop: `1px solid ${c.border}`, display: 'flex', justifyContent: 'flex-end' }}>
        <button
          type="button"
          onClick={() => {
            reset();
            setTransition('fade');
          }}
          css={{
            padding: '8px 12px',
            border: `1px solid ${c.border}`,
            borderRadius: theme.radii.sm,
            background: 'transparent',
            color: c.text,
            font: 'inherit',
            fontSize: theme.font.size.sm,
            cursor: 'pointer',
            '&:hover': { background: c.surfaceHover },
          }}
        >
          {t('customize.reset')}
        </button>
      </footer>
    </div>
  );
}
