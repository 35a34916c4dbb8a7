// ctx.broadcast: messages to every instance of the panel at once (publish/subscribe). A plugin tells
// the browsers watching something that it changed (a ticket got a reply), the core announces that a
// cache went stale. With REDIS_URL the messages travel through Redis pub/sub, so a subscriber on one
// instance hears what another published; without it they stay in this process.
//
// Delivery is "at most once, to whoever listens now": nothing is stored, a subscriber that was not
// listening (or an instance cut off from Redis) misses the message. So a message should say *that*
// something changed, not carry the change: the listener reads the current state the ordinary way.

/** What a message may hold: plain JSON (it crosses processes as JSON text). */
export type BroadcastValue = string | number | boolean | null | BroadcastValue[] | { [key: string]: BroadcastValue };

export type BroadcastHandler = (message: BroadcastValue) => void;

/** A channel name: letters, digits and `: . _ -`, at most 128 characters (e.g. `ticket:42`). */
export const BROADCAST_CHANNEL = /^[A-Za-z0-9][A-Za-z0-9:._-]{0,127}$/;

/** The largest message, as JSON text: a notice, not a payload. */
export const MAX_BROADCAST_BYTES = 16_384;

export interface PluginBroadcast {
  /** where messages travel: Redis (every instance hears them) or this process only */
  readonly backend: 'redis' | 'memory';
  /**
   * Sends `message` to every subscriber of the plugin's `channel` on every instance, this one
   * included (its subscribers hear it even while Redis is unreachable). Resolves once sent; a
   * transport failure is logged, never thrown (a notice must not fail the change it announces). It
   * rejects with a TypeError for a channel that is not BROADCAST_CHANNEL, or a message that is not
   * JSON or is larger than MAX_BROADCAST_BYTES (a mistake in the plugin, not an outage).
   */
  publish(channel: string, message: BroadcastValue): Promise<void>;
  /**
   * Calls `handler` with every message published on the plugin's `channel` from now on (each
   * handler gets its own copy; one that throws is logged). Resolves, with the function that
   * unsubscribes, once the subscription is live on every instance — or, while Redis is unreachable,
   * once that is known (it goes live when Redis returns), so a caller never waits for long.
   * Channels belong to the plugin: another plugin's `ticket:42` is a different channel. While the
   * plugin is disabled its handlers are not called.
   */
  subscribe(channel: string, handler: BroadcastHandler): Promise<() => void>;
}
