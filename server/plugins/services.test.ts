// ctx.services: a plugin offers only services named after itself, once; another plugin gets one
// only when it lists the provider in `requires`, and only once it is provided.
import { describe, expect, it } from 'vitest';
import { createServiceRef } from '../../sdk/services';
import { ServiceRegistry } from './services';

interface Greeter {
  greet(name: string): string;
}
const GREETER = createServiceRef<Greeter>('hello.greeter');
const greeter: Greeter = { greet: (name) => `hi ${name}` };

describe('service references', () => {
  it('name their provider and refuse ids that do not', () => {
    expect(GREETER).toMatchObject({ id: 'hello.greeter', provider: 'hello' });
    for (const id of ['greeter', 'Hello.greeter', 'hello.', '.greeter', 'hello.Greeter']) expect(() => createServiceRef(id)).toThrow(TypeError);
  });
});

describe('ServiceRegistry', () => {
  it('hands the provided implementation to a plugin that requires the provider', () => {
    const registry = new ServiceRegistry();
    registry.forPlugin('hello', []).provide(GREETER, greeter);
    expect(registry.forPlugin('consumer', ['hello']).get(GREETER).greet('ada')).toBe('hi ada');
    // the provider may use its own service
    expect(registry.forPlugin('hello', []).get(GREETER)).toBe(greeter);
  });

  it('refuses a plugin that does not require the provider', () => {
    const registry = new ServiceRegistry();
    registry.forPlugin('hello', []).provide(GREETER, greeter);
    expect(() => registry.forPlugin('stranger', ['auth']).get(GREETER)).toThrow(/does not list plugin "hello"/);
  });

  it('lets only the named plugin provide, and only once', () => {
    const registry = new ServiceRegistry();
    expect(() => registry.forPlugin('impostor', []).provide(GREETER, greeter)).toThrow(/may not provide/);
    registry.forPlugin('hello', []).provide(GREETER, greeter);
    expect(() => registry.forPlugin('hello', []).provide(GREETER, greeter)).toThrow(/already provided/);
  });

  it('says so when the service was never provided', () => {
    expect(() => new ServiceRegistry().forPlugin('consumer', ['hello']).get(GREETER)).toThrow(/not provided/);
  });

  it('refuses something that is not a reference', () => {
    const registry = new ServiceRegistry();
    expect(() => registry.forPlugin('hello', []).provide({ id: 'hello.greeter', provider: 'hello' } as never, greeter)).toThrow(TypeError);
  });

  it('keeps panels apart: each registry has its own services', () => {
    const one = new ServiceRegistry();
    one.forPlugin('hello', []).provide(GREETER, greeter);
    expect(() => new ServiceRegistry().forPlugin('consumer', ['hello']).get(GREETER)).toThrow(/not provided/);
  });
});
