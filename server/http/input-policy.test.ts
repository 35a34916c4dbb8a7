// The host's input policy on a bare Fastify: what a route's schema lets through, and what it refuses
// to register.
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { boundedInteger } from '../../sdk/schema';
import { applyInputDefaults, closeObjects, firstUnacceptable, inputValidatorCompiler, unboundedNumbers } from './input-policy';
import { handleError } from './errors';

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function appWith(register: (app: FastifyInstance) => void): Promise<FastifyInstance> {
  app = Fastify();
  app.setValidatorCompiler(inputValidatorCompiler);
  app.addHook('onRoute', applyInputDefaults);
  app.setErrorHandler(handleError);
  register(app);
  await app.ready();
  return app;
}

describe('unboundedNumbers', () => {
  it('names every integer or number without both bounds, however deep', () => {
    const schema = {
      type: 'object',
      properties: {
        ok: { type: 'integer', minimum: 0, maximum: 5 },
        low: { type: 'integer', minimum: 0 },
        list: { type: 'array', items: { type: 'number', maximum: 1 } },
        either: { anyOf: [{ type: 'string' }, { type: ['integer', 'null'] }] },
        picked: { type: 'integer', enum: [1, 2] },
      },
    };
    expect(unboundedNumbers(schema)).toEqual(['low', 'list.items', 'either.anyOf[1]']);
  });
});

describe('closeObjects', () => {
  it('closes objects that list properties and leaves declared openness alone', () => {
    const closed = closeObjects({ type: 'object', properties: { a: { type: 'object', properties: {} }, b: { type: 'object', additionalProperties: true } } });
    expect(closed).toEqual({
      type: 'object',
      additionalProperties: false,
      properties: { a: { type: 'object', properties: {}, additionalProperties: false }, b: { type: 'object', additionalProperties: true } },
    });
  });
});

describe('firstUnacceptable', () => {
  it('finds NaN, ±Infinity and NUL characters anywhere', () => {
    expect(firstUnacceptable({ a: [1, { b: Infinity }] })).toMatchObject({ keyword: 'finite', instancePath: '/a/1/b' });
    expect(firstUnacceptable({ a: NaN })).toMatchObject({ keyword: 'finite', instancePath: '/a' });
    expect(firstUnacceptable({ a: ['ok', 'x\u0000y'] })).toMatchObject({ keyword: 'nul', instancePath: '/a/1' });
    expect(firstUnacceptable({ a: [1, 2], b: 'Infinity' })).toBeNull();
  });
});

describe('the input policy on a route', () => {
  it('refuses to register a route whose input accepts an unbounded integer, naming route and field', async () => {
    await expect(appWith((a) => a.post('/api/x', { schema: { body: { type: 'object', properties: { n: { type: 'integer', minimum: 0 } } } } }, async () => ({})))).rejects.toThrow(
      /POST \/api\/x: body n accepts a number without both minimum and maximum/,
    );
  });

  it('takes bodies as sent and converts query values only from a plain finite decimal', async () => {
    const seen: unknown[] = [];
    const a = await appWith((a) => {
      a.post('/api/body', { schema: { body: { type: 'object', properties: { n: boundedInteger(0, 100) } } } }, async (request) => {
        seen.push(request.body);
        return { ok: true };
      });
      a.get(
        '/api/query',
        {
          schema: {
            querystring: {
              type: 'object',
              properties: { n: boundedInteger(0, 100, { default: 3 }), on: { type: 'boolean' }, tags: { type: 'array', maxItems: 3, items: { type: 'string', maxLength: 9 } } },
            },
          },
        },
        async (request) => request.query,
      );
    });
    for (const payload of ['{"n":"5"}', '{"n":[5]}', '{"n":5.5}', '{"n":1e309}', '{"n":5,"m":1}']) {
      const res = await a.inject({ method: 'POST', url: '/api/body', payload, headers: { 'content-type': 'application/json' } });
      expect(res.statusCode, payload).toBe(400);
    }
    const extra = await a.inject({ method: 'POST', url: '/api/body', payload: { n: 5, m: 1 } });
    expect(extra.json().error).toEqual({ code: 'VALIDATION_ERROR', message: 'm is not an accepted field.', field: 'm' });
    expect(seen).toEqual([]);
    expect((await a.inject({ method: 'POST', url: '/api/body', payload: { n: 5 } })).statusCode).toBe(200);

    expect((await a.inject({ url: '/api/query?n=7&on=true&tags=a&tags=b' })).json()).toEqual({ n: 7, on: true, tags: ['a', 'b'] });
    expect((await a.inject({ url: '/api/query?tags=a' })).json()).toEqual({ n: 3, tags: ['a'] });
    for (const query of ['n=1e309', 'n=Infinity', 'n=0x10', 'n=%205', 'n=1.0', 'n=101', 'n=1&n=2', 'on=1', 'on=yes', 'x=1']) {
      const res = await a.inject({ url: `/api/query?${query}` });
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.code, query).toBe('VALIDATION_ERROR');
    }
  });

  it('refuses a body to a route that declares none, and a query parameter to an API route that declares none', async () => {
    const a = await appWith((a) => {
      a.post('/api/nobody', async () => ({ ok: true }));
      a.get('/api/noquery', async () => ({ ok: true }));
    });
    expect((await a.inject({ method: 'POST', url: '/api/nobody' })).statusCode).toBe(200);
    expect((await a.inject({ method: 'POST', url: '/api/nobody', payload: {} })).statusCode).toBe(200);
    expect((await a.inject({ method: 'POST', url: '/api/nobody', payload: { a: 1 } })).statusCode).toBe(400);
    expect((await a.inject({ method: 'POST', url: '/api/nobody', payload: 'null', headers: { 'content-type': 'application/json' } })).statusCode).toBe(400);
    expect((await a.inject({ url: '/api/noquery' })).statusCode).toBe(200);
    const res = await a.inject({ url: '/api/noquery?a=1' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.field).toBe('a');
  });
});
