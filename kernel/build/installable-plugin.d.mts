import type { PluginBuildRecord } from './plugin-preset.mjs';

export interface InstallablePlugin {
  id: string;
  version: string;
  /** the installed folder (DATA_DIR/plugins/<id>, or the plugin folder itself) */
  outDir: string;
  inPlace: boolean;
  record: PluginBuildRecord;
  /** everything written, relative to outDir */
  files: string[];
}

export declare function buildInstallablePlugin(options: { pluginDir: string; outDir?: string; production?: boolean; typeCheck?: boolean }): Promise<InstallablePlugin>;
export declare function displayPath(path: string, cwd?: string): string;
