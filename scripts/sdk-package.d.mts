// Types of scripts/sdk-package.mjs for the tests that pack the sdk (tests/contract/sdk-package.test.ts).
export declare const REPO_ROOT: string;
export interface PackageEntry {
  path: string;
  source: string;
  types: string;
  runtime: string;
}
export declare const PACKAGE_ENTRIES: readonly PackageEntry[];
export declare function packageName(specifier: string): string;
export declare function importedPackages(packageDir: string): string[];
export interface PackedSdk {
  /** the .tgz npm pack wrote */
  tarball: string;
  /** the staged package folder it was packed from */
  dir: string;
  /** its package.json */
  manifest: { name: string; version: string; dependencies: Record<string, string>; peerDependencies: Record<string, string>; [key: string]: unknown };
  /** the declaration files in types/, relative to it */
  declarations: string[];
  /** milliseconds per step: types, runtime, pack */
  timings: Record<string, number>;
}
export declare function packSdk(options?: { outDir?: string }): Promise<PackedSdk>;
