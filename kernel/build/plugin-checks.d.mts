import type { PluginManifest } from '../../sdk/types';

export declare class PluginCheckError extends Error {
  constructor(problems: string[]);
  readonly problems: string[];
}
export declare function catalogueKeys(value: unknown, prefix?: string): string[];
export declare function translationKeyProblems(pluginDir: string, manifest: { locales?: readonly string[] }): string[];
export declare function typeCheckProblem(pluginDir: string): Promise<string | null>;
export declare function checkPlugin(pluginDir: string, manifest: PluginManifest, options?: { typeCheck?: boolean }): Promise<void>;
