// The server's typed event bus. Handlers run in subscription order; one that throws is logged with
// the name of its plugin and the rest still run (a plugin never breaks another).
import type { FastifyBaseLogger } from 'fastify';
import type { PluginEvents, ServerEventHandler, ServerEvents } from '../sdk/server';

interface Subscription {
  owner: string;
  handler: (payload: never) => void | Promise<void>;
}

export class EventBus {
  private readonly handlers = new Map<keyof ServerEvents, Subscription[]>();
  /** whether an owner's handlers run now: a disabled plugin must not act (e.g. pay a referral) */
  private listening: (owner: string) => boolean = () => true;

  constructor(private readonly log: FastifyBaseLogger) {}

  /** Sets the rule deciding whose handlers run (the plugin host: only active plugins, and the core). */
  onlyWhile(listening: (owner: string) => boolean): void {
    this.listening = listening;
  }

  on<K extends keyof ServerEvents>(owner: string, name: K, handler: ServerEventHandler<K>): () => void {
    const list = this.handlers.get(name) ?? [];
    const sub: Subscription = { owner, handler: handler as Subscription['handler'] };
    this.handlers.set(name, [...list, sub]);
    return () => {
      this.handlers.set(
        name,
        (this.handlers.get(name) ?? []).filter((s) => s !== sub),
      );
    };
  }

  async emit<K extends keyof ServerEvents>(name: K, payload: ServerEvents[K]): Promise<void> {
    for (const sub of this.handlers.get(name) ?? []) {
      if (!this.listening(sub.owner)) continue;
      try {
        await (sub.handler as ServerEventHandler<K>)(payload);
      } catch (error) {
        this.log.error({ err: error, event: name, plugin: sub.owner }, `event handler of ${sub.owner} for ${String(name)} failed`);
      }
    }
  }

  /** The view handed to one plugin: its subscriptions carry its name in the logs. */
  forOwner(owner: string): PluginEvents {
    return {
      on: (name, handler) => this.on(owner, name, handler),
      emit: (name, payload) => this.emit(name, payload),
    };
  }
}
