// spec §2 rule 5, §4, §9: pages change with an out-then-in transition — the current page plays its
// "out" animation while the next route is decided, then the new page plays its "in" animation. Eight
// transitions (fade by default); the duration is 1 / transitionSpeed seconds; `transitioning` is set
// in the ui store until the new page finished coming in. Reduced motion, disabled animations and the
// system's prefers-reduced-motion skip the animation (duration 0). The first page of a load does not
// come in at all: it is the page the visitor asked for, shown as soon as it is there (issue 15 — the
// fade-in only delayed the moment it could be used, and a pre-rendered page would visibly fade twice).
import { keyframes, type Keyframes } from '@emotion/react';
import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { create } from 'zustand';
import { uiStore } from '../../sdk/client/stores/ui';
import { motionReduced, transitionDurationSeconds, type PageTransition, type PerformanceSettings } from '../../sdk/client/stores/ui';

const DISTANCE = '28px';

/** The "in" and "out" keyframes of each transition. */
export const TRANSITION_KEYFRAMES: Readonly<Record<PageTransition, { enter: Keyframes; leave: Keyframes }>> = {
  fade: {
    enter: keyframes({ from: { opacity: 0 }, to: { opacity: 1 } }),
    leave: keyframes({ from: { opacity: 1 }, to: { opacity: 0 } }),
  },
  'slide-right': {
    enter: keyframes({ from: { opacity: 0, transform: `translateX(-${DISTANCE})` }, to: { opacity: 1, transform: 'none' } }),
    leave: keyframes({ from: { opacity: 1, transform: 'none' }, to: { opacity: 0, transform: `translateX(${DISTANCE})` } }),
  },
  'slide-left': {
    enter: keyframes({ from: { opacity: 0, transform: `translateX(${DISTANCE})` }, to: { opacity: 1, transform: 'none' } }),
    leave: keyframes({ from: { opacity: 1, transform: 'none' }, to: { opacity: 0, transform: `translateX(-${DISTANCE})` } }),
  },
  'slide-up': {
    enter: keyframes({ from: { opacity: 0, transform: `translateY(${DISTANCE})` }, to: { opacity: 1, transform: 'none' } }),
    leave: keyframes({ from: { opacity: 1, transform: 'none' }, to: { opacity: 0, transform: `translateY(-${DISTANCE})` } }),
  },
  'slide-down': {
    enter: keyframes({ from: { opacity: 0, transform: `translateY(-${DISTANCE})` }, to: { opacity: 1, transform: 'none' } }),
    leave: keyframes({ from: { opacity: 1, transform: 'none' }, to: { opacity: 0, transform: `translateY(${DISTANCE})` } }),
  },
  scale: {
    enter: keyframes({ from: { opacity: 0, transform: 'scale(.94)' }, to: { opacity: 1, transform: 'none' } }),
    leave: keyframes({ from: { opacity: 1, transform: 'none' }, to: { opacity: 0, transform: 'scale(1.04)' } }),
  },
  flip: {
    enter: keyframes({ from: { opacity: 0, transform: 'perspective(1200px) rotateY(-70deg)' }, to: { opacity: 1, transform: 'none' } }),
    leave: keyframes({ from: { opacity: 1, transform: 'none' }, to: { opacity: 0, transform: 'perspective(1200px) rotateY(70deg)' } }),
  },
  rotate: {
    enter: keyframes({ from: { opacity: 0, transform: 'rotate(-4deg) scale(.96)' }, to: { opacity: 1, transform: 'none' } }),
    leave: keyframes({ from: { opacity: 1, transform: 'none' }, to: { opacity: 0, transform: 'rotate(4deg) scale(.96)' } }),
  },
};

/** spec §9: 1 / transitionSpeed seconds, or 0 when motion is reduced or animations are off. */
export function transitionDurationMs(performance: PerformanceSettings, systemReduced = uiStore.getState().systemReducedMotion): number {
  if (motionReduced(performance, systemReduced)) return 0;
  return Math.round(1000 * transitionDurationSeconds(performance.transitionSpeed));
}

interface TransitionState {
  /** bumped when the current page starts leaving; pages mounted before it animate out */
  generation: number;
  leaving: boolean;
  /** pages on screen (0 before the first page) */
  mounted: number;
  /** whether a page was ever shown in this load (the first one does not animate in) */
  shownOnce: boolean;
}

const transitionStore = create<TransitionState>(() => ({ generation: 0, leaving: false, mounted: 0, shownOnce: false }));

/** Whether the next page to mount is the first of this load (it shows at once, without coming in). */
export function isFirstPageOfLoad(): boolean {
  return !transitionStore.getState().shownOnce;
}

/**
 * Plays the "out" animation of the page on screen and resolves when it is over (at once when there is
 * no page yet or motion is off). Sets `transitioning` until the next page finished coming in.
 */
export function leaveCurrentPage(): Promise<void> {
  const state = transitionStore.getState();
  if (state.mounted === 0) return Promise.resolve();
  const ms = transitionDurationMs(uiStore.getState().settings.performance);
  uiStore.getState().setTransitioning(true);
  transitionStore.setState({ generation: state.generation + 1, leaving: ms > 0 });
  if (ms === 0) return Promise.resolve();
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * The animated container of one page. Mount it with a `key` per location so a new page plays "in".
 */
export function PageTransition({ children }: { children: ReactNode }) {
  const name = uiStore((s) => s.pageTransition);
  const performance = uiStore((s) => s.settings.performance);
  const systemReduced = uiStore((s) => s.systemReducedMotion);
  const generationAtMount = useRef(transitionStore.getState().generation);
  const leaving = transitionStore((s) => s.leaving && s.generation > generationAtMount.current);
  // read once: the first page of the load is on screen as soon as it renders
  const [firstOfLoad] = useState(isFirstPageOfLoad);
  const [entered, setEntered] = useState(firstOfLoad);
  const ms = transitionDurationMs(performance, systemReduced);

  useLayoutEffect(() => {
    transitionStore.setState((s) => ({ mounted: s.mounted + 1, leaving: false, shownOnce: true }));
    if (ms === 0 || firstOfLoad) {
      setEntered(true);
      uiStore.getState().setTransitioning(false);
    }
    return () => transitionStore.setState((s) => ({ mounted: s.mounted - 1 }));
    // the duration at mount decides whether this page animates in
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const frames = TRANSITION_KEYFRAMES[name] ?? TRANSITION_KEYFRAMES.fade;
  const animation = ms === 0 ? 'none' : leaving ? `${frames.leave} ${ms}ms ease-in both` : entered ? 'none' : `${frames.enter} ${ms}ms ease-out both`;

  return (
    <div
      data-page-transition={name}
      data-transition-phase={leaving ? 'out' : entered ? 'idle' : 'in'}
      onAnimationEnd={(event) => {
        if (event.target !== event.currentTarget || leaving) return;
        setEntered(true);
        uiStore.getState().setTransitioning(false);
      }}
      css={{ animation, minWidth: 0, transformOrigin: '50% 30%', backfaceVisibility: 'hidden' }}
    >
      {children}
    </div>
  );
}
