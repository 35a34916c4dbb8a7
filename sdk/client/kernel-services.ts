// What plugins call that the kernel owns (session refresh, navigation outside React, catalogue
// loading). The kernel registers its implementation once at start-up with provideKernelServices();
// the sdk functions call through it, so the sdk never imports the kernel.

export interface NavigateOptions {
  /** replace the current history entry instead of pushing one */
  replace?: boolean;
}

export interface KernelServices {
  /** Fetches GET /api/user/session now (spec §4 rules: retries, one at a time) and applies it. */
  refreshSession(): Promise<void>;
  /**
   * Ends the session locally (spec §4: cookie variants and the session's local storage keys cleared,
   * refresh timer stopped). Called by `logout()` after the server revoked the session.
   */
  clearSession(): Promise<void> | void;
  /** Navigates through the kernel's router (its guards run). */
  navigate(to: string, options?: NavigateOptions): void;
  /** Loads the kernel's and every plugin's catalogue for `language` (before `changeLanguage` switches). */
  loadLanguage(language: string): Promise<void>;
}

let services: KernelServices | null = null;

/**
 * Registers the kernel's services. The kernel calls this once at start-up, before it installs plugins;
 * `@orepanel/sdk/testing` calls it with a test kernel.
 * @returns a function that unregisters them (if they are still the registered ones)
 */
export function provideKernelServices(implementation: KernelServices): () => void {
  services = implementation;
  return () => {
    if (services === implementation) services = null;
  };
}

/** The registered kernel services; throws a readable error when no kernel is running. */
export function kernelServices(): KernelServices {
  if (!services) {
    throw new Error('No Orepanel kernel is running: this function needs the panel (or renderPlugin() from @orepanel/sdk/testing in tests).');
  }
  return services;
}

/** True when a kernel registered its services. */
export function hasKernelServices(): boolean {
  return services !== null;
}
