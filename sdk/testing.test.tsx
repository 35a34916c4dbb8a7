// @vitest-environment jsdom
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  Button,
  completeLogin,
  definePlugin,
  Form,
  http,
  Page,
  PasswordField,
  PluginContractError,
  Slot,
  TextField,
  useParams,
  useSession,
  useTranslation,
} from '@orepanel/sdk';
import { cleanup, renderPlugin, sessionReply } from '@orepanel/sdk/testing';

afterEach(async () => {
  await cleanup();
  vi.restoreAllMocks();
});

const manifest = {
  id: 'greeter',
  name: 'Greeter',
  version: '1.0.0',
  sdk: '^2.0.0',
  routes: [
    { path: '/greet', component: 'GreetPage', auth: true },
    { path: '/greet/:name', component: 'NamePage', auth: true },
    { path: '/greet-login', component: 'LoginPage', authPage: true, layout: 'bare' },
  ],
  hooks: ['beforeNavigate'],
};

function GreetPage() {
  const { t } = useTranslation('greeter');
  const { user, billing } = useSession();
  return (
    <Page title={t('title')}>
      <p>{t('hello', { name: user?.username ?? '?' })}</p>
      <p>coins: {billing?.coins ?? 0}</p>
    </Page>
  );
}

function NamePage() {
  const { name } = useParams();
  return <p>name is {name}</p>;
}

function LoginPage() {
  const [login, setLogin] = useState('');
  const [password, setPassword] = useState('');
  return (
    <Form
      aria-label="login"
      onSubmit={async () => {
        await http.post('/api/user/auth/login', { login, password });
        await completeLogin();
      }}
    >
      <TextField label="Username or email" name="login" value={login} onChange={setLogin} />
      <PasswordField label="Password" name="password" value={password} onChange={setPassword} />
      <Button type="submit">Sign in</Button>
    </Form>
  );
}

const greeter = definePlugin({
  id: 'greeter',
  setup(ctx) {
    ctx.routes.provide('GreetPage', () => Promise.resolve({ default: GreetPage }));
    ctx.routes.provide('NamePage', () => Promise.resolve({ default: NamePage }));
    ctx.routes.provide('LoginPage', () => Promise.resolve({ default: LoginPage }));
    ctx.hooks.tap('beforeNavigate', (to) => (to.pathname === '/old' ? '/greet' : undefined));
  },
});

describe('renderPlugin', () => {
  it('renders the first route with the session, settings and the plugin catalogue', async () => {
    const app = await renderPlugin(greeter, {
      manifest,
      session: { user: { username: 'alice' }, billing: { coins: 42 } },
      settings: { app_name: 'Cubes' },
      catalogues: { en: { title: 'Greetings', hello: 'Hello, {{name}}!' }, fr: { title: 'Salutations', hello: 'Bonjour, {{name}} !' } },
    });
    expect(app.location().pathname).toBe('/greet');
    expect(await app.findByText('Hello, alice!')).toBeTruthy();
    expect(app.getByRole('heading', 'Greetings')).toBeTruthy();
    expect(app.getByText('coins: 42')).toBeTruthy();
    expect(document.title).toBe('Greetings · Cubes');
    app.unmount();
    expect(app.container.isConnected).toBe(false);
  });

  it("renders in another language and navigates between the plugin's routes", async () => {
    const app = await renderPlugin(greeter, {
      manifest,
      locale: 'fr',
      session: { user: { username: 'bob' } },
      catalogues: { en: { title: 'Greetings', hello: 'Hello, {{name}}!' }, fr: { title: 'Salutations', hello: 'Bonjour, {{name}} !' } },
    });
    await app.findByText('Bonjour, bob !');
    await app.navigate('/greet/carol');
    expect(await app.findByText('name is carol')).toBeTruthy();
  });

  it('drives a form: server field errors land on the input, the login completes to the after-login route', async () => {
    let attempts = 0;
    const app = await renderPlugin(greeter, {
      manifest,
      route: '/greet-login',
      http: {
        'POST /api/user/auth/login': () =>
          ++attempts === 1
            ? { status: 400, body: { error: { code: 'VALIDATION_ERROR', message: 'Enter your username or email.', field: 'login' } } }
            : attempts === 2
              ? { status: 401, body: { error: { code: 'INVALID_CREDENTIALS', message: 'Invalid username/email or password.' } } }
              : { body: { success: true } },
        'GET /api/user/session': sessionReply({ user: { username: 'alice' } }),
      },
    });
    const login = await app.waitFor(() => app.getByLabelText('Username or email'));
    await app.click(app.getByRole('button', 'Sign in'));
    await app.findByText('Enter your username or email.');
    expect(login.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(login);

    await app.type(login, 'alice');
    expect(login.getAttribute('aria-invalid')).toBeNull(); // the field error clears as the user corrects it
    await app.type(app.getByLabelText('Password'), 'wrong');
    await app.click(app.getByRole('button', 'Sign in'));
    const alert = await app.findByRole('alert');
    expect(alert.textContent).toBe('Invalid username/email or password.');

    await app.type(app.getByLabelText('Password'), 'right');
    await app.click(app.getByRole('button', 'Sign in'));
    await app.waitFor(() => expect(app.location().pathname).toBe('/auth/after-login'));
    expect(app.httpCalls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'POST /api/user/auth/login',
      'POST /api/user/auth/login',
      'POST /api/user/auth/login',
      'GET /api/user/session',
    ]);
    expect(app.httpCalls[2].body).toEqual({ login: 'alice', password: 'right' });
  });

  it("translates an error code with the plugin's own catalogue (errors.<CODE>)", async () => {
    const app = await renderPlugin(greeter, {
      manifest,
      route: '/greet-login',
      locale: 'de',
      catalogues: { de: { errors: { INVALID_CREDENTIALS: 'Benutzername oder Passwort ist falsch.' } } },
      http: { 'POST /api/user/auth/login': { status: 401, body: { error: { code: 'INVALID_CREDENTIALS', message: 'Invalid username/email or password.' } } } },
    });
    await app.click(await app.findByRole('button', 'Sign in'));
    expect((await app.findByRole('alert')).textContent).toBe('Benutzername oder Passwort ist falsch.');
    // the sdk's own texts follow the language too
    expect(app.getByRole('button', 'Passwort anzeigen')).toBeTruthy();
  });

  it('shows the password on demand', async () => {
    const app = await renderPlugin(greeter, { manifest, route: '/greet-login' });
    const password = await app.waitFor(() => app.getByLabelText('Password') as HTMLInputElement);
    expect(password.type).toBe('password');
    await app.click(app.getByRole('button', 'Show password'));
    expect(password.type).toBe('text');
  });

  it('installs other plugins alongside, e.g. one that fills a slot of the page under test', async () => {
    const host = definePlugin({
      id: 'host',
      setup(ctx) {
        ctx.routes.provide('HomePage', () =>
          Promise.resolve({
            default: () => (
              <section>
                <Slot name="dashboard.widgets" fallback={<p>no widgets</p>} />
              </section>
            ),
          }),
        );
      },
    });
    const widget = definePlugin({
      id: 'widget',
      setup(ctx) {
        ctx.slots.provide('CoinsWidget', () => Promise.resolve({ default: ({ label }: { label?: string }) => <p>coins widget {label}</p> }));
      },
    });
    const app = await renderPlugin(host, {
      manifest: { id: 'host', name: 'Host', version: '1.0.0', sdk: '^2.0.0', routes: [{ path: '/home', component: 'HomePage' }] },
      alongside: [
        { plugin: widget, manifest: { id: 'widget', name: 'Widget', version: '1.0.0', sdk: '^2.0.0', slots: [{ slot: 'dashboard.widgets', component: 'CoinsWidget' }] } },
      ],
    });
    expect(await app.findByText('coins widget')).toBeTruthy();
  });

  it('calls the hooks the plugin tapped', async () => {
    const app = await renderPlugin(greeter, { manifest });
    expect(app.callHook('beforeNavigate', { pathname: '/old', search: '', hash: '', from: null, route: null, pluginId: null })).toBe('/greet');
  });

  it('refuses an undeclared registration exactly as the panel does', async () => {
    const sneaky = definePlugin({
      id: 'greeter',
      setup(ctx) {
        ctx.routes.provide('GreetPage', () => Promise.resolve({ default: GreetPage }));
        ctx.slots.provide('Widget', () => Promise.resolve({ default: GreetPage }));
      },
    });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const failure = renderPlugin(sneaky, { manifest });
    await expect(failure).rejects.toBeInstanceOf(PluginContractError);
    await expect(renderPlugin(sneaky, { manifest })).rejects.toThrow('plugin "greeter" provides component "Widget" but plugin.json declares no slot with component "Widget"');
  });

  it('refuses an invalid plugin.json with the schema errors', async () => {
    await expect(renderPlugin(greeter, { manifest: { ...manifest, version: 'one' } })).rejects.toThrow(/plugin.json of "greeter" is invalid: \/version/);
  });

  it('a page that throws shows the error card and is recorded in failures', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const broken = definePlugin({
      id: 'greeter',
      setup(ctx) {
        ctx.routes.provide('GreetPage', () =>
          Promise.resolve({
            default: () => {
              throw new ApiError(500, 'SERVER_ERROR', 'nope');
            },
          }),
        );
        ctx.routes.provide('NamePage', () => Promise.resolve({ default: NamePage }));
        ctx.routes.provide('LoginPage', () => Promise.resolve({ default: LoginPage }));
      },
    });
    const app = await renderPlugin(broken, { manifest });
    await app.findByText('“Greeter” could not be displayed.');
    expect(app.failures).toEqual([{ pluginId: 'greeter', phase: 'render', target: 'GreetPage', reason: 'plugin "greeter" failed to render GreetPage: nope' }]);
  });
});
