/**
 * `@orepanel/sdk/testing` — render a plugin in a test kernel (Backstage's renderInTestApp is the model).
 *
 * The plugin goes through the very same install as in the panel (its plugin.json is validated; every
 * route, slot, hook and event it registers is checked against it), then a route is rendered with the
 * panel's providers (router, i18n instance, PluginBoundary) in jsdom. The sdk's http client is answered
 * by your handlers and every call is recorded.
 *
 * @example
 * // @vitest-environment jsdom
 * import { renderPlugin, sessionReply } from '@orepanel/sdk/testing';
 * import plugin from '../client';
 * import manifest from '../plugin.json';
 * import en from '../locales/en.json';
 *
 * it('logs in', async () => {
 *   const app = await renderPlugin(plugin, {
 *     manifest,
 *     route: '/auth/login',
 *     catalogues: { en },
 *     http: {
 *       'POST /api/user/auth/login': { body: { success: true } },
 *       'GET /api/user/session': sessionReply({ user: { username: 'alice' } }),
 *     },
 *   });
 *   await app.type(app.getByLabelText('Username or email'), 'alice');
 *   await app.type(app.getByLabelText('Password'), 'correct horse');
 *   await app.click(app.getByRole('button', 'Sign in'));
 *   await app.waitFor(() => expect(app.location().pathname).toBe('/auth/after-login'));
 *   expect(app.httpCalls[0].body).toEqual({ login: 'alice', password: 'correct horse' });
 *   app.unmount();
 * });
 * @packageDocumentation
 */

// This file is the entry point only: the kit lives in ./testing/*, one module per concern. The
// server-side kit (a panel with the plugin installed) is `@orepanel/sdk/testing/server`.
export { sessionReply, testSessionResponse, type TestSession } from './testing/session';
export type { HttpHandler, HttpHandlers, HttpReply, RecordedHttpCall } from './testing/http';
export type { TextMatch } from './testing/queries';
export { cleanup, renderPlugin, type RenderedPlugin, type RenderPluginOptions, type WaitOptions } from './testing/render';
export { testDiagnostics, type TestDiagnostics } from './testing/diagnostics';
