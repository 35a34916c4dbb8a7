// The modules the kernel shares with plugins (sdk/shared-modules.json is the one list; a unit test
// checks this table against it). 'eager' ones are already in the kernel bundle: a plugin receives the
// very namespace the kernel itself runs with. 'lazy' ones are kernel chunks fetched on first import.
//
// Whole namespaces are kept on purpose (`import * as`): a plugin may use any export, so rollup must not
// tree-shake them away.
import * as emotionReact from '@emotion/react';
import * as emotionJsxRuntime from '@emotion/react/jsx-runtime';
import * as i18next from 'i18next';
import * as immer from 'immer';
import * as mitt from 'mitt';
import * as React from 'react';
import * as ReactJsxRuntime from 'react/jsx-runtime';
import * as ReactDom from 'react-dom';
import * as ReactDomClient from 'react-dom/client';
import * as reactI18next from 'react-i18next';
// the browser API only (server, RSC and framework-mode exports left out): see react-router-dom-browser.ts
import * as ReactRouterDom from './react-router-dom-browser';
import * as zustand from 'zustand';
import * as sdk from '@orepanel/sdk';

/** A module namespace as a plain record of its exports. */
export type ModuleNamespace = Readonly<Record<string, unknown>>;

export type SharedModuleLoader = () => ModuleNamespace | Promise<ModuleNamespace>;

export type SharedModuleMode = 'eager' | 'lazy';

/** bare specifier -> how the kernel provides it */
export const SHARED_MODULES: Readonly<Record<string, { mode: SharedModuleMode; load: SharedModuleLoader }>> = Object.freeze({
  react: { mode: 'eager', load: () => React },
  'react/jsx-runtime': { mode: 'eager', load: () => ReactJsxRuntime },
  'react-dom': { mode: 'eager', load: () => ReactDom },
  'react-dom/client': { mode: 'eager', load: () => ReactDomClient },
  'react-router-dom': { mode: 'eager', load: () => ReactRouterDom },
  zustand: { mode: 'eager', load: () => zustand },
  immer: { mode: 'eager', load: () => immer },
  i18next: { mode: 'eager', load: () => i18next },
  'react-i18next': { mode: 'eager', load: () => reactI18next },
  '@emotion/react': { mode: 'eager', load: () => emotionReact },
  '@emotion/react/jsx-runtime': { mode: 'eager', load: () => emotionJsxRuntime },
  mitt: { mode: 'eager', load: () => mitt },
  '@orepanel/sdk': { mode: 'eager', load: () => sdk },
  // rarely used: fetched the first time a plugin (or the sdk's dialogs) imports them
  sweetalert2: { mode: 'lazy', load: () => import('sweetalert2') },
  skinview3d: { mode: 'lazy', load: () => import('skinview3d') },
});

export function isSharedModule(specifier: string): boolean {
  return Object.hasOwn(SHARED_MODULES, specifier);
}

/** Loads a shared module's namespace (a lazy one is fetched once; the chunk is cached by the browser). */
export async function loadSharedModule(specifier: string): Promise<ModuleNamespace> {
  const entry = SHARED_MODULES[specifier];
  if (!entry) throw new Error(`"${specifier}" is not a module the kernel shares (see sdk/shared-modules.json)`);
  return entry.load();
}
