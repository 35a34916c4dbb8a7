// Isolation of plugin UI (Backstage's ExtensionBoundary is the model): everything a plugin renders —
// route pages and slot components alike — goes through PluginBoundary: Suspense with a Skeleton while
// the lazy chunk loads, then an error boundary that names the plugin and shows a small error card
// instead of breaking the page. A failure is reported (console, registry, `plugin:failed`).
import { Component, createContext, lazy, Suspense, useContext, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';
import { useSdkText } from './i18n';
import type { ComponentLoader, PluginComponent } from './plugin';
import { errorText, PluginUnavailableError, registryStore, reportPluginFailure } from './stores/registry';
import { Icon } from './ui/icons';
import { Skeleton } from './ui/feedback';
import { theme } from './ui/theme';

const PluginIdContext = createContext<string | null>(null);

/** The id of the plugin whose component is rendering (null outside any plugin boundary). */
export function usePluginId(): string | null {
  return useContext(PluginIdContext);
}

type Props = Record<string, unknown>;
const lazyCache = new WeakMap<ComponentLoader, LazyExoticComponent<ComponentType<Props>>>();

function isRenderable(value: unknown): value is ComponentType<Props> {
  // function and class components are functions; memo() and forwardRef() results are objects with $$typeof
  return typeof value === 'function' || (typeof value === 'object' && value !== null && '$$typeof' in value);
}

/**
 * The React.lazy component for a loader, made once per loader (React.lazy remembers a failed load;
 * {@link forgetLazyComponent} lets a retry fetch the chunk again).
 */
export function lazyComponent(loader: ComponentLoader, describe = 'component'): LazyExoticComponent<ComponentType<Props>> {
  let cached = lazyCache.get(loader);
  if (!cached) {
    cached = lazy(async () => {
      const module: { default: PluginComponent } = await loader();
      const component: unknown = module?.default;
      if (!isRenderable(component)) throw new TypeError(`the module of ${describe} has no default export that is a React component`);
      return { default: component };
    });
    lazyCache.set(loader, cached);
  }
  return cached;
}

/** Components loaded ahead of their first render ({@link prepareComponent}), by loader. */
const readyComponents = new WeakMap<ComponentLoader, ComponentType<Props>>();

/**
 * Loads a component before it first renders, so that render shows it at once instead of suspending:
 * React holds a Suspense boundary's content until 300 ms after its fallback appeared, and the first
 * page of a load should not pay that (issue 15). `fetch` loads the module (default: the loader
 * itself); a failure is left for the render, which loads again and shows the error card.
 */
export async function prepareComponent(loader: ComponentLoader, fetch: ComponentLoader = loader): Promise<void> {
  try {
    const module: { default: PluginComponent } = await fetch();
    if (isRenderable(module?.default)) readyComponents.set(loader, module.default);
  } catch {
    // shown by the render that follows
  }
}

/** Drops the lazy component of a loader, so the next render calls the loader again. */
export function forgetLazyComponent(loader: ComponentLoader): void {
  lazyCache.delete(loader);
  readyComponents.delete(loader);
}

export interface PluginBoundaryProps {
  /** the plugin whose UI is inside */
  pluginId: string;
  /** the component name from plugin.json, for the report */
  component?: string;
  /** `page` shows a taller skeleton and error card than `inline` (slots); default `inline` */
  variant?: 'page' | 'inline';
  /** what shows while the lazy chunk loads (default: a Skeleton) */
  fallback?: ReactNode;
  /** runs when the user presses the error card's retry button, before the children render again */
  onRetry?: () => void;
  children: ReactNode;
}

interface BoundaryState {
  error: unknown;
  failed: boolean;
}

class PluginErrorBoundary extends Component<PluginBoundaryProps, BoundaryState> {
  override state: BoundaryState = { error: null, failed: false };

  static getDerivedStateFromError(error: unknown): BoundaryState {
    return { error, failed: true };
  }

  override componentDidCatch(error: unknown): void {
    // a plugin whose client could not be installed was reported when it failed
    if (error instanceof PluginUnavailableError) return;
    const { pluginId, component } = this.props;
    reportPluginFailure(
      {
        pluginId,
        phase: 'render',
        target: component,
        reason: `plugin "${pluginId}" failed to render${component ? ` ${component}` : ''}: ${errorText(error)}`,
      },
      error,
    );
  }

  retry = () => {
    this.props.onRetry?.();
    this.setState({ error: null, failed: false });
  };

  override render() {
    if (this.state.failed) {
      return <PluginErrorCard pluginId={this.props.pluginId} error={this.state.error} variant={this.props.variant ?? 'inline'} onRetry={this.retry} />;
    }
    return this.props.children;
  }
}

function PluginErrorCard({ pluginId, error, variant, onRetry }: { pluginId: string; error: unknown; variant: 'page' | 'inline'; onRetry: () => void }) {
  const text = useSdkText();
  const name = registryStore((s) => s.manifests.find((m) => m.id === pluginId)?.name ?? pluginId);
  const c = theme.colors;
  return (
    <div
      role="alert"
      data-plugin-error={pluginId}
      css={{
        display: 'grid',
        gap: 8,
        alignContent: 'start',
        padding: variant === 'page' ? '24px 20px' : '14px 16px',
        margin: variant === 'page' ? '24px auto' : 0,
        maxWidth: variant === 'page' ? 560 : undefined,
        borderRadius: theme.radii.md,
        border: `1px solid ${c.danger}55`,
        background: c.dangerSoft,
        color: c.text,
        fontSize: theme.font.size.md,
      }}
    >
      <div css={{ display: 'flex', gap: 8, alignItems: 'center' }}>
        <Icon name="alert" size={18} style={{ color: c.danger }} />
        <strong>{text('pluginFailed', { plugin: name })}</strong>
      </div>
      <details css={{ color: c.muted, fontSize: theme.font.size.sm }}>
        <summary css={{ cursor: 'pointer' }}>{text('details')}</summary>
        <code css={{ display: 'block', marginTop: 6, fontFamily: theme.font.mono, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {pluginId}: {errorText(error)}
        </code>
      </details>
      <div>
        <button
          type="button"
          onClick={onRetry}
          css={{
            font: 'inherit',
            fontSize: theme.font.size.sm,
            color: c.text,
            background: c.surfaceRaised,
            border: `1px solid ${c.border}`,
            borderRadius: theme.radii.sm,
            padding: '6px 12px',
            cursor: 'pointer',
            '&:hover': { background: c.surfaceHover },
          }}
        >
          {text('retry')}
        </button>
      </div>
    </div>
  );
}

/**
 * Renders plugin UI in isolation: while the lazy chunk loads a Skeleton shows; if the plugin throws,
 * a small error card naming the plugin replaces it (with a retry button) and the failure is reported.
 * Components inside can read their plugin id with {@link usePluginId}.
 */
export function PluginBoundary(props: PluginBoundaryProps) {
  const variant = props.variant ?? 'inline';
  return (
    <PluginIdContext.Provider value={props.pluginId}>
      <PluginErrorBoundary {...props}>
        <Suspense
          fallback={
            props.fallback ?? (
              <div data-plugin-loading={props.pluginId}>
                <Skeleton lines={variant === 'page' ? 6 : 3} height={variant === 'page' ? 18 : 14} />
              </div>
            )
          }
        >
          {props.children}
        </Suspense>
      </PluginErrorBoundary>
    </PluginIdContext.Provider>
  );
}

function LazyPluginComponent({ loader, describe, props }: { loader: ComponentLoader; describe: string; props?: Props }) {
  const Ready = readyComponents.get(loader);
  if (Ready) return <Ready {...props} />;
  const Lazy = lazyComponent(loader, describe);
  return <Lazy {...props} />;
}

export interface PluginComponentHostProps {
  pluginId: string;
  /** the component name from plugin.json */
  component: string;
  /** the loader the plugin provided */
  loader: ComponentLoader;
  /** props for the component (slots pass theirs; routes pass none) */
  props?: Props;
  variant?: 'page' | 'inline';
  fallback?: ReactNode;
}

/**
 * A plugin's lazily loaded component inside its {@link PluginBoundary}. The kernel renders each route
 * with it (`variant="page"`); `<Slot>` renders each slot component with it.
 */
export function PluginComponentHost({ pluginId, component, loader, props, variant, fallback }: PluginComponentHostProps) {
  return (
    <PluginBoundary pluginId={pluginId} component={component} variant={variant} fallback={fallback} onRetry={() => forgetLazyComponent(loader)}>
      <LazyPluginComponent loader={loader} describe={`component "${component}" of plugin "${pluginId}"`} props={props} />
    </PluginBoundary>
  );
}
