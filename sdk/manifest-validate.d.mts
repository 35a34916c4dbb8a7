import type { PluginManifest } from './types';
export declare function validateManifest(json: unknown): { ok: true; manifest: PluginManifest } | { ok: false; errors: string[] };
