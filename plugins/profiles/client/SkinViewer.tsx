// The 3D Minecraft skin viewer of a profile (skinview3d, a shared module the kernel loads lazily: it is
// imported here, inside the profile page's own chunk, and only when the viewer mounts). Its look
// follows the `skinViewer` interface settings (spec §9 defaults: walking, no auto-rotate, zoom 0.8,
// speed 1, camera light 3, global light 2.9) live: a change in the customisation panel is applied to
// the running viewer, without drawing it anew. Reduced motion (the panel's, or the browser's) and
// "disable animations" stop the walk and the turning.
//
// It fails soft: when WebGL is missing (old or locked-down browsers, jsdom in tests — then skinview3d
// is not even downloaded) or skinview3d cannot load or start, the skin texture itself is shown as a
// flat image. A skin address that does not load
// (a skin service down, no CORS) falls back to the bundled default skin.
import { theme, useMotionReduced, useTranslation, useUiSettings, type SkinViewerSettings } from '@orepanel/sdk';
import { useEffect, useRef, useState } from 'react';
import { DEFAULT_SKIN_PATH } from '../shared/people';

const WIDTH = 260;
const HEIGHT = 360;

type ViewerState = 'loading' | '3d' | 'flat';

/** What the viewer applies from the interface settings (pure, so it is tested without WebGL). */
export function viewerOptions(look: SkinViewerSettings, reduceMotion: boolean) {
  return {
    walking: look.walkingAnimation && !reduceMotion,
    animationSpeed: look.animationSpeed,
    autoRotate: look.autoRotate && !reduceMotion,
    zoom: look.zoom,
    cameraLight: look.cameraLight,
    globalLight: look.globalLight,
  };
}

export type ViewerOptions = ReturnType<typeof viewerOptions>;

/** The parts of skinview3d's viewer the settings change (an interface, so it is tested without WebGL). */
export interface ViewerHandle<A extends { speed: number }> {
  zoom: number;
  autoRotate: boolean;
  cameraLight: { intensity: number };
  globalLight: { intensity: number };
  animation: A | null;
}

/** Applies the settings to a running viewer; the walk is made (by `walk`) only when it starts. */
export function applyViewerOptions<A extends { speed: number }>(viewer: ViewerHandle<A>, o: ViewerOptions, walk: () => A): void {
  viewer.zoom = o.zoom;
  viewer.autoRotate = o.autoRotate;
  viewer.cameraLight.intensity = o.cameraLight;
  viewer.globalLight.intensity = o.globalLight;
  if (!o.walking) {
    viewer.animation = null;
    return;
  }
  const animation = viewer.animation ?? walk();
  animation.speed = o.animationSpeed;
  viewer.animation = animation;
}

/** Can this browser draw WebGL? Asked first, so a browser that cannot never downloads skinview3d. */
function webglAvailable(): boolean {
  try {
    const probe = document.createElement('canvas');
    const gl = probe.getContext('webgl2') ?? probe.getContext('webgl');
    // give the probe's context back at once: browsers allow only a few at a time
    gl?.getExtension('WEBGL_lose_context')?.loseContext();
    return gl !== null;
  } catch {
    return false;
  }
}

export interface SkinViewerProps {
  /** the skin address; null: the bundled default skin */
  skinUrl: string | null;
  /** whose skin it is (the accessible name) */
  username: string;
}

export function SkinViewer({ skinUrl, username }: SkinViewerProps) {
  const { t } = useTranslation('profiles');
  const look = useUiSettings('skinViewer');
  const still = useMotionReduced();
  const canvas = useRef<HTMLCanvasElement>(null);
  const [state, setState] = useState<ViewerState>('loading');
  const [texture, setTexture] = useState(skinUrl ?? DEFAULT_SKIN_PATH);
  const options = viewerOptions(look, still);
  const optionsKey = JSON.stringify(options);
  // the settings of now, for a viewer that finishes starting after they changed
  const latest = useRef(options);
  latest.current = options;
  const apply = useRef<((o: ViewerOptions) => void) | null>(null);

  useEffect(() => setTexture(skinUrl ?? DEFAULT_SKIN_PATH), [skinUrl]);

  useEffect(() => {
    let disposed = false;
    let dispose: (() => void) | null = null;
    const element = canvas.current;
    if (!element) return;
    setState('loading');
    (async () => {
      try {
        if (!webglAvailable()) throw new Error('no WebGL');
        const skinview3d = await import('skinview3d');
        if (disposed) return;
        // throws without WebGL: then the flat image below is what the user gets
        const viewer = new skinview3d.SkinViewer({ canvas: element, width: WIDTH, height: HEIGHT, zoom: latest.current.zoom });
        dispose = () => viewer.dispose();
        apply.current = (o) => applyViewerOptions(viewer, o, () => new skinview3d.WalkingAnimation());
        apply.current(latest.current);
        try {
          await viewer.loadSkin(texture);
        } catch {
          if (texture === DEFAULT_SKIN_PATH) throw new Error('the default skin did not load');
          await viewer.loadSkin(DEFAULT_SKIN_PATH);
        }
        if (!disposed) setState('3d');
      } catch {
        apply.current = null;
        dispose?.();
        dispose = null;
        if (!disposed) setState('flat');
      }
    })();
    return () => {
      disposed = true;
      apply.current = null;
      dispose?.();
    };
  }, [texture]);

  // a change in the customisation panel reaches the running viewer at once
  useEffect(() => {
    apply.current?.(JSON.parse(optionsKey) as ViewerOptions);
  }, [optionsKey]);

  return (
    <figure css={{ margin: 0, display: 'grid', justifyItems: 'center', gap: 8 }}>
      <canvas
        ref={canvas}
        role="img"
        aria-label={t('skin.viewerLabel', { username })}
        hidden={state === 'flat'}
        css={{ width: WIDTH, maxWidth: '100%', height: HEIGHT, cursor: 'grab', '&:active': { cursor: 'grabbing' } }}
      />
      {state === 'flat' && (
        <img
          src={texture}
          alt={t('skin.flatLabel', { username })}
          width={192}
          height={192}
          referrerPolicy="no-referrer"
          onError={() => setTexture(DEFAULT_SKIN_PATH)}
          css={{ width: 192, height: 192, imageRendering: 'pixelated', background: theme.colors.surfaceRaised, borderRadius: theme.radii.md }}
        />
      )}
      <figcaption css={{ color: theme.colors.muted, fontSize: theme.font.size.sm, textAlign: 'center' }}>
        {state === 'flat' ? t('skin.flat') : state === '3d' ? t('skin.hint') : t('skin.loading')}
      </figcaption>
    </figure>
  );
}
