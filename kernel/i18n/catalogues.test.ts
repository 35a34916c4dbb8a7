// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { cataloguesToLoad, KERNEL_LOCALES_ELEMENT_ID, loadCatalogues, readKernelCatalogueFiles } from './catalogues';

const files = { en: '/locales/en-1.json', fr: '/locales/fr-1.json', de: '/locales/de-1.json' };

function fakeFetch(answers: Record<string, () => Response | Promise<Response>>) {
  return vi.fn(async (url: string) => {
    const answer = answers[url];
    if (!answer) return new Response('not found', { status: 404 });
    return answer();
  });
}

const json = (body: unknown) => () => new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });

describe('catalogues (spec §4.2, §8)', () => {
  it('loads the fallback language and the stored one (once when they are the same)', () => {
    expect(cataloguesToLoad('fr')).toEqual(['en', 'fr']);
    expect(cataloguesToLoad('en')).toEqual(['en']);
  });

  it('adds every catalogue that loads to its namespace', async () => {
    const add = vi.fn();
    const fetch = fakeFetch({ [files.en]: json({ hello: 'Hello' }), [files.fr]: json({ hello: 'Bonjour' }) });
    const loaded = await loadCatalogues({ fetch, add, log: { error: vi.fn() } }, { namespace: 'kernel' }, files, ['en', 'fr']);
    expect(loaded).toEqual(['en', 'fr']);
    expect(add).toHaveBeenCalledWith('kernel', 'en', { hello: 'Hello' });
    expect(add).toHaveBeenCalledWith('kernel', 'fr', { hello: 'Bonjour' });
  });

  it("logs 'Failed to load locale messages for {locale}' and carries on with the fallback", async () => {
    const add = vi.fn();
    const log = { error: vi.fn() };
    const fetch = fakeFetch({ [files.en]: json({ hello: 'Hello' }), [files.de]: () => new Response('oops', { status: 500 }) });
    const loaded = await loadCatalogues({ fetch, add, log }, { namespace: 'kernel' }, files, ['en', 'de']);
    expect(loaded).toEqual(['en']);
    expect(log.error).toHaveBeenCalledTimes(1);
    expect(log.error.mock.calls[0][0]).toBe('Failed to load locale messages for de');
    expect(add).toHaveBeenCalledWith('kernel', 'en', { hello: 'Hello' });
  });

  it('logs a separate message when the fallback catalogue fails', async () => {
    const log = { error: vi.fn() };
    const fetch = fakeFetch({
      [files.en]: () => {
        throw new TypeError('Failed to fetch');
      },
      [files.fr]: json({ hello: 'Bonjour' }),
    });
    const loaded = await loadCatalogues({ fetch, add: vi.fn(), log }, { namespace: 'kernel' }, files, ['en', 'fr']);
    expect(loaded).toEqual(['fr']);
    expect(log.error.mock.calls[0][0]).toBe('Failed to load fallback locale messages');
  });

  it('refuses a body that is not a catalogue, and names the plugin it belongs to', async () => {
    const log = { error: vi.fn() };
    const fetch = fakeFetch({ [files.fr]: json(['not', 'an', 'object']) });
    const loaded = await loadCatalogues({ fetch, add: vi.fn(), log }, { namespace: 'auth' }, files, ['fr'], 'plugin "auth"');
    expect(loaded).toEqual([]);
    expect(log.error.mock.calls[0][0]).toBe('Failed to load locale messages for fr (plugin "auth")');
  });

  it('reports a language that has no published catalogue', async () => {
    const log = { error: vi.fn() };
    const loaded = await loadCatalogues({ fetch: fakeFetch({}), add: vi.fn(), log }, { bundle: true }, files, ['es']);
    expect(loaded).toEqual([]);
    expect(log.error.mock.calls[0][0]).toBe('Failed to load locale messages for es');
  });

  it("the kernel's file bundles several namespaces (the kernel's and the built-in plugins')", async () => {
    const add = vi.fn();
    const fetch = fakeFetch({ [files.en]: json({ kernel: { loading: 'Loading…' }, auth: { 'login.title': 'Log in' }, broken: 'not an object' }) });
    expect(await loadCatalogues({ fetch, add, log: { error: vi.fn() } }, { bundle: true }, files, ['en'])).toEqual(['en']);
    expect(add.mock.calls).toEqual([
      ['kernel', 'en', { loading: 'Loading…' }],
      ['auth', 'en', { 'login.title': 'Log in' }],
    ]);
  });

  it('reads the hashed catalogue URLs the build wrote into index.html', () => {
    document.body.innerHTML = `<script type="application/json" id="${KERNEL_LOCALES_ELEMENT_ID}">{"en":"/locales/en-abc.json","ro":"/locales/ro-def.json"}</script>`;
    expect(readKernelCatalogueFiles(document)).toEqual({ en: '/locales/en-abc.json', ro: '/locales/ro-def.json' });
    document.body.innerHTML = '';
    expect(readKernelCatalogueFiles(document)).toEqual({});
  });
});
