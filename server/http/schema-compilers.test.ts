import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { sharedSerializerFactory } from './schema-compilers';

function appWith(properties: Record<string, { type: string }>) {
  const app = Fastify({ schemaController: { compilersFactory: { buildSerializer: sharedSerializerFactory } } });
  app.get('/thing', { schema: { response: { 200: { type: 'object', properties } } } }, async () => ({ name: 'Ada', secret: 'kept out', count: 3 }));
  return app;
}

describe('the shared response serializers', () => {
  it('serve every instance with the same schema, each answering by its own schema', async () => {
    const first = appWith({ name: { type: 'string' } });
    const second = appWith({ name: { type: 'string' } });
    // same URL, another schema: never the serializer of the first two
    const other = appWith({ count: { type: 'integer' } });
    try {
      for (const app of [first, second]) expect((await app.inject({ method: 'GET', url: '/thing' })).json()).toEqual({ name: 'Ada' });
      expect((await other.inject({ method: 'GET', url: '/thing' })).json()).toEqual({ count: 3 });
    } finally {
      await Promise.all([first.close(), second.close(), other.close()]);
    }
  });
});
