import type { UserConfig } from 'vitest/config';

/** The vitest configuration of a plugin project: JSX, jsdom page tests with the plugin's catalogues, node server tests. */
export declare function definePluginTestConfig(options?: { root?: string; test?: NonNullable<UserConfig['test']> }): UserConfig;
