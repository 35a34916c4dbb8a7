// @vitest-environment jsdom
import { cleanup, renderPlugin } from '@orepanel/sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import plugin from '../client';
import manifest from '../plugin.json';
import en from '../locales/en.json';
import ro from '../locales/ro.json';

afterEach(() => cleanup());

const company = {
  app_name: 'OreHost',
  company_name: 'Ore Hosting SRL',
  company_address: 'Strada Mare 1',
  company_zip: '010101',
  company_city: 'București',
  company_state: '',
  company_country: 'România',
  company_vat: 'RO123456',
};

function documentReply(document: string, content: string, updatedAt: string | null = '2026-03-01T10:00:00.000Z') {
  return { status: 200, body: { document, content, updated_at: updatedAt } };
}

describe('legal pages', () => {
  it("renders the host's text as text: headings, paragraphs, and markup never interpreted", async () => {
    const content = '# Our policy\n\nWe keep <b>little</b> data.\n\n<script>window.__legalInjected = true</script>\n\n- name\n- email';
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/privacy-policy',
      catalogues: { en },
      settings: company,
      http: { 'GET /api/legal/privacy-policy': documentReply('privacy-policy', content) },
    });
    await app.findByRole('heading', 'Our policy');

    expect(app.getByText('<script>window.__legalInjected = true</script>').tagName).toBe('P');
    expect(app.getByText('We keep <b>little</b> data.')).toBeTruthy();
    expect(app.container.querySelector('script')).toBeNull();
    expect(app.container.querySelector('article b')).toBeNull();
    expect((globalThis as { __legalInjected?: boolean }).__legalInjected).toBeUndefined();
    expect(app.getByRole('listitem', 'email')).toBeTruthy();
    expect(app.getByText(/^Last updated: /).textContent).toContain('2026');
    // the generated default is not mixed in
    expect(app.queryByText(en.privacy.default.rights.heading)).toBeNull();
  });

  it('shows the generated default, with the company settings, when the host wrote nothing', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/privacy-policy',
      catalogues: { en },
      settings: company,
      http: { 'GET /api/legal/privacy-policy': documentReply('privacy-policy', '   ', null) },
    });
    await app.findByRole('heading', en.privacy.default.controller.heading);

    expect(app.getByRole('heading', en.privacy.default.rights.heading)).toBeTruthy();
    expect(app.getByText('Ore Hosting SRL is responsible for the processing of your personal data on OreHost.')).toBeTruthy();
    expect(app.getByText(/Address: Strada Mare 1, 010101 București, România/).textContent).toContain('VAT number: RO123456');
    expect(app.queryByText(/^Last updated/)).toBeNull();
  });

  it('names the app as the operator when no company is set, in the interface language', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/terms-of-service',
      locale: 'ro',
      catalogues: { en, ro },
      settings: { app_name: 'OreHost' },
      http: { 'GET /api/legal/terms-of-service': documentReply('terms-of-service', '') },
    });
    await app.findByRole('heading', ro.terms.title);
    expect(app.getByText(/^Acești termeni reglementează utilizarea OreHost, operat de OreHost\./)).toBeTruthy();
    expect(app.queryByText(/Adresă:/)).toBeNull();
  });

  it('shows an error with a retry that loads the document again', async () => {
    let calls = 0;
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/terms-of-service',
      catalogues: { en },
      http: {
        'GET /api/legal/terms-of-service': () => {
          calls += 1;
          return calls === 1 ? { status: 500, body: { error: { code: 'SERVER_ERROR', message: 'boom' } } } : documentReply('terms-of-service', '# Terms\n\nBe nice.');
        },
      },
    });
    await app.findByText(en.loadError);
    await app.click(app.getByRole('button', en.retry));
    await app.findByText('Be nice.');
    expect(calls).toBe(2);
  });

  it('links back to the login page for visitors and to the dashboard for a logged-in user', async () => {
    const visitor = await renderPlugin(plugin, {
      manifest,
      route: '/privacy-policy',
      catalogues: { en },
      http: { 'GET /api/legal/privacy-policy': documentReply('privacy-policy', 'Text') },
    });
    expect((await visitor.findByRole('link', en.back.login)).getAttribute('href')).toBe('/auth/login');
    expect(visitor.getByRole('link', en.terms.title).getAttribute('href')).toBe('/terms-of-service');
    visitor.unmount();

    const member = await renderPlugin(plugin, {
      manifest,
      route: '/terms-of-service',
      catalogues: { en },
      session: { user: { username: 'ana' } },
      http: { 'GET /api/legal/terms-of-service': documentReply('terms-of-service', 'Text') },
    });
    expect((await member.findByRole('link', en.back.dashboard)).getAttribute('href')).toBe('/dashboard');
    expect(member.getByRole('link', en.privacy.title).getAttribute('href')).toBe('/privacy-policy');
  });
});
