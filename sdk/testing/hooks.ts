// Test hooks: tapable's semantics for the kernel hooks (bail for beforeNavigate), without tapable.
import type { HookTapTarget } from '../client/install';
import type { KernelHookName } from '../client/plugin';

type TapFn = (...args: unknown[]) => unknown;

export class TestHook implements HookTapTarget<TapFn> {
  readonly taps: { name: string; fn: TapFn }[] = [];
  constructor(private readonly bail: boolean) {}
  tap(name: string, fn: TapFn): void {
    this.taps.push({ name, fn });
  }
  call(...args: unknown[]): unknown {
    for (const { fn } of this.taps) {
      const result = fn(...args);
      if (this.bail && result !== undefined) return result;
    }
    return undefined;
  }
}

export function createTestHooks(): Record<KernelHookName, TestHook> {
  return {
    beforeNavigate: new TestHook(true),
    afterNavigate: new TestHook(false),
    sessionLoaded: new TestHook(false),
    sessionCleared: new TestHook(false),
    localeChanged: new TestHook(false),
  };
}
