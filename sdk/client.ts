/**
 * `@orepanel/sdk` — the browser SDK every Orepanel plugin imports.
 *
 * At runtime this is ONE shared module: the kernel's bundle contains it and hands the very same
 * instance to every plugin (SystemJS), so the session, settings, i18n instance and UI kit are shared.
 * A plugin imports only from here and from the shared modules in sdk/shared-modules.json.
 *
 * @example
 * // plugins/hello/client/index.tsx
 * import { definePlugin } from '@orepanel/sdk';
 * export default definePlugin({
 *   id: 'hello',
 *   setup(ctx) {
 *     ctx.routes.provide('HelloPage', () => import('./HelloPage'));
 *   },
 * });
 *
 * // plugins/hello/client/HelloPage.tsx
 * import { Page, Card, useSession, useTranslation } from '@orepanel/sdk';
 * export default function HelloPage() {
 *   const { t } = useTranslation('hello');
 *   const { user } = useSession();
 *   return <Page title={t('title')}><Card>{t('greeting', { name: user?.username })}</Card></Page>;
 * }
 * @packageDocumentation
 */

// Contracts shared with the server and the build.
export * from './types';
export { SDK_VERSION } from './version';
export { hasPermission, isAdminRole } from './manifest';
export { ACCOUNT_RULES } from './account-rules';
export { SPEC_FEATURE_FLAGS, SPEC_SETTINGS_GROUPS, type SpecSettingsGroupId } from './spec-settings';
export { changedFields } from './client/changed-fields';
export { useEditForm, type EditForm, type EditFormOptions, type FieldBinding, type FieldProblems } from './client/edit-form';

// The plugin API.
export {
  definePlugin,
  isOrepanelPlugin,
  PluginContractError,
  PLUGIN_API_VERSION,
  KERNEL_HOOK_NAMES,
  type OrepanelPlugin,
  type PluginDefinition,
  type PluginContext,
  type PluginComponent,
  type ComponentLoader,
  type ComponentRegistry,
  type PluginHooks,
  type PluginEvents,
  type PluginLogger,
  type KernelHookName,
  type KernelHookSignatures,
  type NavigationTarget,
  type OverlayProps,
} from './client/plugin';
export {
  DIAGNOSTICS_LIMITS,
  type Diagnostics,
  type DiagnosticsLimits,
  type DiagnosticsList,
  type DiagnosticsSnapshot,
  type NetworkEntry,
  type LogEntry,
  type LogLevel,
  type LogSource,
} from './client/diagnostics';
export { REDACTED, isSecretName, redactValue, redactText, redactJsonText, redactQuery, redactUrl, redactHeaders, redactCookies, redactStoredValue } from './client/redact';
export {
  KERNEL_EVENT_NAMES,
  type KernelEvents,
  type KernelEventName,
  type NavigationEvent,
  type PluginFailure,
  type PluginFailurePhase,
} from './client/events';

// Talking to the server.
export {
  http,
  ApiError,
  isApiError,
  useApi,
  upload,
  type RequestOptions,
  type QueryValue,
  type UseApiResult,
  type UploadOptions,
  type UploadProgress,
} from './client/http';

// Session, settings, interface settings.
export { useSession, completeLogin, logout, AFTER_LOGIN_PATH, LOGIN_PATH, type UseSessionResult } from './client/session';
export type { SessionUser, SessionBilling, SessionStats, SessionStatus, SessionSnapshot } from './client/stores/session';
export { useSettings, useSetting, useSettingsDebugInfo, isSettingEnabled, type SettingValue } from './client/stores/settings';
export { useRouteAvailable } from './client/route-availability';
export { refreshNavBadges } from './client/nav-badges';
export {
  useUiSettings,
  UI_SETTINGS_DEFAULTS,
  PAGE_TRANSITIONS,
  DEFAULT_PAGE_TRANSITION,
  ANIMATION_STYLES,
  SLIDER_LIMITS,
  SKIN_VIEWER_LIMITS,
  sliderStops,
  snapToSlider,
  motionReduced,
  useMotionReduced,
  transitionDurationSeconds,
  type UiSettings,
  type UiSettingsGroup,
  type PageTransition,
  type AnimationStyle,
  type SkinViewerSettings,
  type ProfileDropdownSettings,
  type SidebarSettings,
  type TopNavigationSettings,
  type NotificationSettings,
  type PerformanceSettings,
  type SliderLimits,
} from './client/stores/ui';

// Dialogs.
export {
  dialogs,
  validateDialogInput,
  DIALOG_DEFAULTS,
  DIALOG_ICONS,
  type AlertOptions,
  type ConfirmOptions,
  type PromptOptions,
  type DialogIcon,
  type DialogInput,
  type DialogOutcome,
} from './client/dialogs';
export { DISMISS_REASONS, type DismissReason } from './client/stores/dialog';

// Languages.
export {
  i18n,
  useTranslation,
  Trans,
  changeLanguage,
  currentLanguage,
  isLanguage,
  normalizeLanguage,
  LANGUAGE_NAMES,
  FALLBACK_LANGUAGE,
} from './client/i18n';

// Realtime sockets (spec §2 /ws): the panel's reconnect policy, the kernel's banner, the lost-connection page.
export {
  openRealtimeSocket,
  useRealtimeSocket,
  realtimeRetryDelay,
  safeReturnPath,
  lostConnectionPath,
  panelAnswers,
  REALTIME_RETRY,
  LOST_CONNECTION_PATH,
  PANEL_PROBE_PATH,
  type RealtimeConnection,
  type RealtimePhase,
  type RealtimeSocketOptions,
  type RealtimeState,
  type UseRealtimeSocket,
  type UseRealtimeSocketOptions,
} from './client/realtime';

// Ads (spec §1, §5, §9): the ad component and whether an ad may show here.
export { Ad, AD_DEFAULTS, AD_FREE_PERMISSION, useAdClient, type AdProps, type AdLayout } from './client/ads';

// Long work the server runs, followed from a page until it ends.
export { useTaskFollower, TASK_POLL_MS, type FollowedTask, type TaskFollower, type TaskFollowerOptions, type TaskState } from './client/task-follower';

// Plugin UI composition.
export { Slot, useSlotEntries, type SlotProps, type SlotEntry } from './client/slots';
export { PluginBoundary, PluginComponentHost, usePluginId, type PluginBoundaryProps, type PluginComponentHostProps } from './client/boundary';

// The UI kit.
export * from './client/ui';

// The admin area's shared pieces (the core admin API, dates, the save bar, the settings form).
export {
  ADMIN_API,
  ADMIN_PATHS,
  ADMIN_PERMISSIONS,
  type AdminRole,
  type PlainSettingValue,
  type SettingDescriptor,
} from './client/admin/admin-api';
export { useDateTime } from './client/admin/date-time';
export { SaveBar } from './client/admin/save-bar';
export { SettingsForm, type SettingsFormProps, type SettingsSection } from './client/admin/settings-form';

// Routing, re-exported for convenience (the same react-router-dom instance as the kernel's).
export { Link, NavLink, Navigate, useLocation, useNavigate, useParams, useSearchParams } from 'react-router-dom';
export { useReturnParams } from './client/return-params';
