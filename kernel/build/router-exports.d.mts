export declare const ROUTER_PACKAGE: 'react-router-dom';
/** kernel/modules/react-router-dom-browser.ts */
export declare const routerBrowserModuleFile: string;
/** name -> why the kernel does not share it (kernel/modules/react-router-dom.exclusions.json) */
export declare function readRouterExclusions(): Record<string, string>;
export declare function routerVersion(): string;
/** Every runtime export of the package's browser entry, sorted. */
export declare function browserExportNames(specifier?: string): Promise<string[]>;
export declare function sharedRouterExports(): Promise<{ all: string[]; shared: string[]; excluded: string[]; exclusions: Record<string, string> }>;
export declare function renderRouterBrowserModule(names: readonly string[], version: string): string;
