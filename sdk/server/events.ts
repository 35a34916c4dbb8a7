// ctx.events: the server-side event bus between the core and plugins.

/** Server-side events. Plugins add their own by declaration merging on this interface. */
export interface ServerEvents {
  'user.registered': { userId: number; uuid: string; username: string; ref: string | null };
  'session.started': { userId: number; sessionId: number; ip: string | null };
  /** heard on every instance of the panel (relayed through Redis when REDIS_URL is set): close what you hold for it */
  'session.ended': { userId: number; sessionId: number };
  'plugin.state': { id: string; enabled: boolean };
  /** the account's e-mail address changed (it is unverified now); linkBase: the panel's public address */
  'user.email_changed': { userId: number; email: string; linkBase: string };
  /**
   * the account is about to be deleted (by itself or an administrator): its rows are still there, so
   * what lives outside the database (servers on the panel) can be removed now. Handlers run before the
   * delete, one after another; one that fails is logged and the deletion goes on.
   */
  'user.deleting': { userId: number; uuid: string };
  /**
   * the account deleted itself (its sessions and the rows that reference it are gone); heard on every
   * instance (relayed through Redis), so a handler's database work must bear running more than once
   */
  'user.deleted': { userId: number; uuid: string };
  /** the account's current e-mail address has just been proved (a verification link, a password-reset link) */
  'user.verified': { userId: number };
  /**
   * the account's e-mail address or password changed (by its owner, an administrator or a reset
   * link): every link mailed to it before (password reset, e-mail verification) must stop working
   */
  'user.credentials_changed': { userId: number };
  /**
   * a backup was restored over the running panel (ctx.panelBackup.restore): every table was
   * replaced, so whatever a plugin keeps in memory from the database must be read again
   */
  'panel.restored': { backup: string };
}

export type ServerEventHandler<K extends keyof ServerEvents> = (payload: ServerEvents[K]) => void | Promise<void>;

export interface PluginEvents {
  /** Subscribes; returns the function that unsubscribes. A throwing handler is logged, not fatal. */
  on<K extends keyof ServerEvents>(name: K, handler: ServerEventHandler<K>): () => void;
  /** Runs every handler in subscription order and resolves when all have finished. */
  emit<K extends keyof ServerEvents>(name: K, payload: ServerEvents[K]): Promise<void>;
}
