export declare const PLUGIN_ID_PATTERN: RegExp;
export declare const LANGUAGES: readonly string[];
export declare const PLUGIN_DEV_PACKAGES: readonly string[];
export declare function pluginDevDependencies(panelPackage: { dependencies?: Record<string, string>; devDependencies?: Record<string, string> }): Record<string, string>;
export interface ScaffoldOptions {
  id: string;
  /** what package.json depends on for @orepanel/sdk: a version range, or file:…/orepanel-sdk-x.tgz */
  sdk: string;
  sdkVersion: string;
  devDependencies: Record<string, string>;
}
export declare function scaffoldFiles(options: ScaffoldOptions): Record<string, string>;
export declare function scaffoldPlugin(options: ScaffoldOptions & { dir?: string }): { dir: string; files: string[] };
