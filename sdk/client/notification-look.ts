// The look of the panel's notifications — the toasts of the dialog API and the unread counts beside
// menu items — from the `notifications` interface settings (spec §9: glass, opacity, glow, animation,
// showBackground). One function for both, so a toast and a count change together when the user moves
// a control in the customisation panel.
import type { AnimationStyle, NotificationSettings } from './stores/ui';
import { theme } from './ui/theme';

/** `#rrggbb` with an alpha (0–1) as rgba(). */
export function withAlpha(hex: string, alpha: number): string {
  const n = Number.parseInt(hex.slice(1), 16);
  const a = Math.round(Math.min(1, Math.max(0, alpha)) * 1000) / 1000;
  return `rgba(${(n >> 16) & 255},${(n >> 8) & 255},${n & 255},${a})`;
}

/** The CSS of a notification surface, as plain properties (emotion objects and inline styles alike). */
export interface NotificationSurface {
  background: string;
  border: string;
  boxShadow: string;
  backdropFilter: string;
}

/**
 * What a notification looks like. `fill` is its colour when it has a background (a toast's surface, a
 * count's accent): `opacity` is that background's alpha; without a background only the border shows,
 * so the text stands on what is behind it. Glass blurs what is behind; glow rings it in the accent.
 */
export function notificationSurface(look: NotificationSettings, fill: string): NotificationSurface {
  const c = theme.colors;
  return {
    background: look.showBackground ? withAlpha(fill, look.opacity) : 'transparent',
    border: `1px solid ${look.showBackground ? c.border : c.primary}`,
    boxShadow: look.glow ? `0 0 0 1px ${withAlpha(c.primary, 0.55)}, 0 0 14px ${withAlpha(c.primary, 0.45)}` : 'none',
    backdropFilter: look.glass && look.showBackground ? 'blur(10px) saturate(1.4)' : 'none',
  };
}

/** Keyframe bodies of the component animation styles (spec §9: fade, slide, scale, bounce), coming in. */
export const NOTIFICATION_KEYFRAMES: Readonly<Record<AnimationStyle, string>> = Object.freeze({
  fade: 'from{opacity:0}to{opacity:1}',
  slide: 'from{opacity:0;transform:translateX(24px)}to{opacity:1;transform:none}',
  scale: 'from{opacity:0;transform:scale(.6)}to{opacity:1;transform:none}',
  bounce: '0%{opacity:0;transform:scale(.4)}55%{opacity:1;transform:scale(1.15)}75%{transform:scale(.92)}100%{opacity:1;transform:none}',
});

/** The keyframes' name of an animation style, coming in (`in`) or going (`out`, the same played back). */
export function notificationAnimationName(style: AnimationStyle): string {
  return `op-notification-${style}`;
}

/** Every keyframes rule, for a stylesheet. */
export function notificationKeyframesCss(): string {
  return (Object.entries(NOTIFICATION_KEYFRAMES) as [AnimationStyle, string][]).map(([style, body]) => `@keyframes ${notificationAnimationName(style)}{${body}}`).join('');
}

export const NOTIFICATION_ANIMATION_MS = 280;

/**
 * The `animation` of a notification coming in (or going, `reverse`), or 'none' when motion is held
 * still. `keyframes`: the keyframes to name (an emotion `keyframes()` object is inserted where it is
 * used); by default the named rules of {@link notificationKeyframesCss}.
 */
export function notificationAnimation(
  look: NotificationSettings,
  still: boolean,
  direction: 'in' | 'out' = 'in',
  keyframes: { toString(): string } = notificationAnimationName(look.animation),
): string {
  if (still) return 'none';
  return `${keyframes} ${NOTIFICATION_ANIMATION_MS}ms ease-out both${direction === 'out' ? ' reverse' : ''}`;
}
