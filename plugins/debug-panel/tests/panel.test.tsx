// @vitest-environment jsdom
// The panel rendered as the kernel opens it (renderPlugin's overlay), over a filled diagnostics log:
// counts on the tabs, the network list and a request's details with the cURL command, the errors,
// the terminal's warning before any input, the settings groups, and the close button.
import { cleanup, renderPlugin, testDiagnostics } from '@orepanel/sdk/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import plugin from '../client';
import en from '../locales/en.json';
import fr from '../locales/fr.json';
import manifest from '../plugin.json';

afterEach(() => cleanup());
beforeEach(() => {
  sessionStorage.clear();
  localStorage.clear();
});

function filledLog() {
  const log = testDiagnostics();
  log.addRequest({ method: 'GET', url: '/api/user/session', status: 200, responseBody: '{"success":true}' });
  log.addRequest({
    method: 'POST',
    url: '/api/user/auth/login',
    status: 401,
    requestHeaders: { 'content-type': 'application/json' },
    requestBody: '{"login":"alice","password":"[redacted]"}',
    responseBody: '{"error":{"code":"INVALID_CREDENTIALS","message":"Wrong login or password."}}',
  });
  log.addError('Unhandled Promise Rejection: Error: nope', 'rejection');
  log.addConsole('hello from the page');
  log.addConsole('careful', 'warn');
  return log;
}

async function openPanel(locale: 'en' | 'fr' = 'en') {
  return renderPlugin(plugin, {
    manifest,
    overlay: 'DebugPanel',
    catalogues: { en, fr },
    locale,
    diagnostics: filledLog(),
    settings: { app_name: 'Orepanel', afk_enabled: true },
  });
}

describe('the debug panel', () => {
  it('counts what was recorded on its tabs and lists the requests, newest first', async () => {
    const app = await openPanel();
    expect(app.getByRole('tab', /^Network/).textContent).toBe('Network2');
    expect(app.getByRole('tab', /^Errors/).textContent).toBe('Errors1');
    expect(app.getByRole('tab', /^Console/).textContent).toBe('Console2');
    const rows = [...app.container.querySelectorAll('[data-network-entry]')].map((row) => row.textContent);
    expect(rows[0]).toContain('POST401/api/user/auth/login');
    expect(rows[1]).toContain('GET200/api/user/session');
  });

  it('opens a request: its redacted body, the answer, and a cURL command without credentials', async () => {
    const app = await openPanel();
    await app.click(app.container.querySelector('[data-network-entry]') as Element);
    const text = app.container.textContent ?? '';
    expect(text).toContain('"password": "[redacted]"');
    expect(text).toContain('INVALID_CREDENTIALS');
    expect(app.getByRole('button', 'Copy as cURL')).toBeTruthy();
    await app.click(app.getByRole('button', /All requests/));
    expect(app.container.querySelectorAll('[data-network-entry]')).toHaveLength(2);
  });

  it('filters the requests', async () => {
    const app = await openPanel();
    await app.type(app.getByLabelText('Filter by method, address or status'), 'session');
    await app.waitFor(() => expect(app.container.querySelectorAll('[data-network-entry]')).toHaveLength(1));
    await app.type(app.getByLabelText('Filter by method, address or status'), 'nothing-like-this');
    await app.findByText('Nothing matches the filter.');
  });

  it('shows the errors with their source, and the console by level', async () => {
    const app = await openPanel();
    await app.click(app.getByRole('tab', /^Errors/));
    await app.findByText('Unhandled Promise Rejection: Error: nope');
    await app.click(app.getByRole('tab', /^Console/));
    await app.type(app.getByLabelText('Level'), 'warn');
    await app.waitFor(() => expect(app.container.querySelectorAll('[data-log-entry]')).toHaveLength(1));
    expect(app.queryByText('careful')).not.toBeNull();
  });

  it('warns before the terminal takes any input, in the user’s language', async () => {
    const app = await openPanel('fr');
    await app.click(app.getByRole('tab', 'Application'));
    await app.findByText(/ne collez pas de code que quelqu’un vous a envoyé/);
    expect(app.queryByRole('textbox', 'Script à exécuter')).toBeNull();
    await app.click(app.getByRole('button', 'J’ai compris, ouvrir le terminal'));
    const input = app.getByLabelText('Script à exécuter');
    await app.type(input, '2*21');
    await app.click(app.getByRole('button', 'Exécuter'));
    await app.waitFor(() => expect(app.container.querySelector('[data-terminal-line="result"]')?.textContent).toBe('42'));
  });

  it('shows the cached settings in the spec’s groups', async () => {
    const app = await openPanel();
    await app.click(app.getByRole('tab', 'Settings'));
    for (const group of ['General', 'Company', 'Server defaults', 'Feature flags', 'Debug info']) expect(app.getByRole('region', group)).toBeTruthy();
    expect(app.container.textContent).toContain('app_nameOrepanel');
  });

  it('closes with its close button', async () => {
    const app = await openPanel();
    await app.click(app.getByRole('button', 'Close the developer tools'));
    expect(app.overlayCloses()).toBe(1);
    expect(app.queryByRole('dialog')).toBeNull();
  });
});
