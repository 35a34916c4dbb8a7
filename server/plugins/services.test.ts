// ctx.services: a plugin offers only services named after itself, once, while it registers; another
// plugin gets one only when it lists the provider in `requires`, only from its start() on, and only
// once it is provided.
import { describe, expect, it } from 'vitest';
import { createServiceRef } from '../../sdk/services';
import { ServiceRegistry } from './services';

interface Greeter {
  greet(name: string): string;
}
const GREETER = createServiceRef<Greeter>('hello.greeter');
const greeter: Greeter = { greet: (name) => `hi ${name}` };

/** A registry where plugin "hello" has registered its greeter, and `started` are in their start phase. */
function registryWithGreeter(...started: string[]): ServiceRegistry {
  const registry = new ServiceRegistry();
  registry.forPlugin('hello', []).provide(GREETER, greeter);
  for (const id of started) registry.startPhase(id);
  return registry;
}

describe('service references', () => {
  it('name their provider and refuse ids that do not', () => {
    expect(GREETER).toMatchObject({ id: 'hello.greeter', provider: 'hello' });
    for (const id of ['greeter', 'Hello.greeter', 'hello.', '.greeter', 'hello.Greeter']) expect(() => createServiceRef(id)).toThrow(TypeError);
  });
});

describe('ServiceRegistry', () => {
  it('hands the provided implementation to a started plugin that requires the provider', () => {
    const registry = registryWithGreeter('hello', 'consumer');
    expect(registry.forPlugin('consumer', ['hello']).get(GREETER).greet('ada')).toBe('hi ada');
    // the provider may use its own service
    expect(registry.forPlugin('hello', []).get(GREETER)).toBe(greeter);
  });

  it('refuses a plugin that does not require the provider', () => {
    const registry = registryWithGreeter('hello', 'stranger');
    expect(() => registry.forPlugin('stranger', ['auth']).get(GREETER)).toThrow(/does not list plugin "hello"/);
  });

  it('lets only the named plugin provide, and only once', () => {
    const registry = new ServiceRegistry();
    expect(() => registry.forPlugin('impostor', []).provide(GREETER, greeter)).toThrow(/may not provide/);
    registry.forPlugin('hello', []).provide(GREETER, greeter);
    expect(() => registry.forPlugin('hello', []).provide(GREETER, greeter)).toThrow(/already provided/);
  });

  it('says so when the service was never provided', () => {
    const registry = new ServiceRegistry();
    registry.startPhase('consumer');
    expect(() => registry.forPlugin('consumer', ['hello']).get(GREETER)).toThrow(/not provided/);
  });

  it('refuses something that is not a reference', () => {
    const registry = new ServiceRegistry();
    expect(() => registry.forPlugin('hello', []).provide({ id: 'hello.greeter', provider: 'hello' } as never, greeter)).toThrow(TypeError);
  });

  it('keeps panels apart: each registry has its own services', () => {
    registryWithGreeter('hello');
    const other = new ServiceRegistry();
    other.startPhase('consumer');
    expect(() => other.forPlugin('consumer', ['hello']).get(GREETER)).toThrow(/not provided/);
  });
});

describe('ServiceRegistry phases (register, then start)', () => {
  it('refuses a get during register, even of a service already provided, and says to ask in start()', () => {
    const registry = registryWithGreeter();
    const consumer = registry.forPlugin('consumer', ['hello']);
    expect(() => consumer.get(GREETER)).toThrow('plugin "consumer" asks for service "hello.greeter" in its register()');
    expect(() => consumer.get(GREETER)).toThrow(/ask in start\(\)/);
    // the provider too: its own service is handed over from its start() on
    expect(() => registry.forPlugin('hello', []).get(GREETER)).toThrow(/in its register\(\)/);
  });

  it('hands the service over once the consumer starts: the same view, a later phase', () => {
    const registry = registryWithGreeter('hello');
    const consumer = registry.forPlugin('consumer', ['hello']);
    expect(() => consumer.get(GREETER)).toThrow(/register/);
    registry.startPhase('consumer');
    expect(consumer.get(GREETER)).toBe(greeter);
  });

  it('refuses a provide once the provider has started, and keeps nothing of it', () => {
    const registry = new ServiceRegistry();
    const provider = registry.forPlugin('hello', []);
    registry.startPhase('hello');
    expect(() => provider.provide(GREETER, greeter)).toThrow('plugin "hello" provides service "hello.greeter" after its register(): provide it in register()');
    registry.startPhase('consumer');
    expect(() => registry.forPlugin('consumer', ['hello']).get(GREETER)).toThrow(/not provided/);
  });

  it('checks the requirement before the phase: a stranger hears it does not list the provider, in any phase', () => {
    const registry = registryWithGreeter('hello');
    expect(() => registry.forPlugin('stranger', []).get(GREETER)).toThrow(/does not list plugin "hello"/);
  });

  it('keeps the phases per plugin: one started plugin does not start another', () => {
    const registry = registryWithGreeter('hello', 'consumer');
    expect(registry.forPlugin('consumer', ['hello']).get(GREETER)).toBe(greeter);
    expect(() => registry.forPlugin('late', ['hello']).get(GREETER)).toThrow(/in its register\(\)/);
  });
});

describe('ServiceRegistry.find (optional providers)', () => {
  it("hands an optional provider's service over while it is active, and null while it is off or offers none", () => {
    const active = new Set(['hello']);
    const registry = new ServiceRegistry((id) => active.has(id));
    registry.forPlugin('hello', []).provide(GREETER, greeter);
    registry.startPhase('hello');
    registry.startPhase('consumer');
    const consumer = registry.forPlugin('consumer', [], ['hello']);
    expect(consumer.find(GREETER)).toBe(greeter);
    active.delete('hello');
    expect(consumer.find(GREETER)).toBeNull();
    // get() stays for `requires`: an optional provider is not asked with it
    expect(() => consumer.get(GREETER)).toThrow(/does not list plugin "hello" in its plugin.json "requires"/);
    const empty = new ServiceRegistry(() => true);
    empty.startPhase('consumer');
    expect(empty.forPlugin('consumer', [], ['hello']).find(GREETER)).toBeNull();
  });

  it('refuses find() for a provider listed nowhere, and in register()', () => {
    const registry = new ServiceRegistry(() => true);
    registry.forPlugin('hello', []).provide(GREETER, greeter);
    expect(() => registry.forPlugin('consumer', [], ['hello']).find(GREETER)).toThrow(/in its register\(\)/);
    registry.startPhase('stranger');
    expect(() => registry.forPlugin('stranger', [], []).find(GREETER)).toThrow(/does not list plugin "hello" in its plugin.json "requires" or "optional"/);
  });
});
