// The three tapable hook kinds the kernel uses, each from its own file. tapable's index is CommonJS
// that requires all ten hook kinds with HookMap and MultiHook, and rollup cannot tree-shake CommonJS:
// through the index every one of them was in the kernel bundle every page downloads (issue 15).
import type * as Tapable from 'tapable';
import AsyncSeriesHookClass from 'tapable/lib/AsyncSeriesHook.js';
import SyncBailHookClass from 'tapable/lib/SyncBailHook.js';
import SyncHookClass from 'tapable/lib/SyncHook.js';

export const AsyncSeriesHook = AsyncSeriesHookClass as typeof Tapable.AsyncSeriesHook;
export const SyncBailHook = SyncBailHookClass as typeof Tapable.SyncBailHook;
export const SyncHook = SyncHookClass as typeof Tapable.SyncHook;
