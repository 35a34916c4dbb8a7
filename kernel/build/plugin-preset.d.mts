import type { RollupOptions } from 'rollup';
import type { PluginManifest } from '../../sdk/types';

/** The value of dist/plugins.json for one plugin. */
export interface PluginBuildRecord {
  entry?: string;
  integrity?: string;
  localeFiles: Record<string, string>;
}

export declare function readPluginManifest(pluginDir: string, options?: { checkFolderName?: boolean }): PluginManifest;
export declare function pluginClientEntry(pluginDir: string): string;
/** Where the browser files go: `<publicDir>/plugins/<id>/`, or `outDir` when given (one of the two is needed). */
export interface PluginOutput {
  publicDir?: string;
  outDir?: string;
}
export declare function pluginClientConfig(
  options: PluginOutput & {
    pluginDir: string;
    production?: boolean;
    manifest?: PluginManifest;
    onBuilt?: (built: { id: string; entry: string; integrity: string; files: string[]; pages: Record<string, string[]> }) => void;
  },
): RollupOptions;
export declare function writePluginLocales(options: PluginOutput & { pluginDir: string; manifest?: PluginManifest }): Record<string, string>;
export declare function buildPlugin(
  options: PluginOutput & {
    pluginDir: string;
    production?: boolean;
    checkFolderName?: boolean;
  },
): Promise<{ id: string; manifest: PluginManifest; record: PluginBuildRecord; files: string[] }>;
