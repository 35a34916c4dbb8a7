// @vitest-environment jsdom
import { cleanup, renderPlugin, sessionReply, type HttpHandlers, type TestSession } from '@orepanel/sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import plugin from '../client';
import manifest from '../plugin.json';
import en from '../locales/en.json';

afterEach(() => cleanup());

const CHROME_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';

const user: TestSession = { user: { username: 'alice', first_name: 'Alice', last_name: 'Liddell', email: 'alice@example.com', verified: true } };

const sessions = {
  data: [
    {
      id: 'AAAAAAAAAAAAAAAAAAAAAA',
      created_at: '2026-01-01T10:00:00.000Z',
      last_seen_at: '2026-01-02T10:00:00.000Z',
      ip: '198.51.100.7',
      user_agent: CHROME_WINDOWS,
      current: true,
    },
    {
      id: 'BBBBBBBBBBBBBBBBBBBBBB',
      created_at: '2026-01-01T09:00:00.000Z',
      last_seen_at: '2026-01-01T12:00:00.000Z',
      ip: '203.0.113.9',
      user_agent: FIREFOX_LINUX,
      current: false,
    },
  ],
};

const activities = (page: number) => ({
  data: [{ id: page, action: page === 1 ? 'auth.login' : 'auth.register', by: 'self', details: {}, ip: '198.51.100.7', created_at: '2026-01-02T10:00:00.000Z' }],
  meta: { page, per_page: 10, total: 11, total_pages: 2 },
});

function handlers(extra: HttpHandlers = {}): HttpHandlers {
  return {
    'GET /api/user/session/sessions': { body: sessions },
    'GET /api/user/session/pin': { body: { pin: '012345' } },
    // no provider on: the linked-accounts card stays hidden (linked-accounts.test.tsx covers it)
    'GET /api/user/auth/oauth/accounts': { body: { data: [], providers: [] } },
    'GET /api/user/session/activities': (call) => ({ body: activities(Number(call.query.get('page') ?? 1)) }),
    'GET /api/user/session': sessionReply(user),
    'GET /api/user/mail-preferences': { body: { preferences: [] } },
    ...extra,
  };
}

async function open(extra: HttpHandlers = {}, options: { session?: TestSession; route?: string } = {}) {
  const app = await renderPlugin(plugin, { manifest, route: options.route ?? '/account', catalogues: { en }, session: options.session ?? user, http: handlers(extra) });
  await app.findByRole('button', 'Save profile');
  return app;
}

type App = Awaited<ReturnType<typeof open>>;

const profileForm = () => document.querySelector<HTMLFormElement>(`form[aria-label="${en.profile.title}"]`)!;
/** The profile form's current-password input (the password card has one with the same label). */
const profilePassword = (app: App) =>
  app.waitFor(() => {
    const input = profileForm().querySelector<HTMLInputElement>('input[name="current_password"]');
    if (!input) throw new Error('no current password field in the profile form yet');
    return input;
  });

const posts = (app: App, path: string) => app.httpCalls.filter((call) => call.method === 'POST' && call.path === path);

describe('account page: profile', () => {
  it('refuses picture addresses that are not http(s) and a bad e-mail before asking the server (spec §5)', async () => {
    const app = await open();
    await app.type(app.getByLabelText('Avatar URL'), 'javascript:alert(1)');
    await app.type(app.getByLabelText('Background URL'), 'ftp://example.com/bg.png');
    await app.type(app.getByLabelText('E-mail'), 'not-an-address');
    await app.click(app.getByRole('button', 'Save profile'));
    await app.waitFor(() => expect(document.body.textContent).toContain('Invalid URL'));
    expect(document.body.textContent).toContain('Invalid email address');
    expect(app.getByLabelText('Avatar URL').getAttribute('aria-invalid')).toBe('true');
    expect(app.getByLabelText('Background URL').getAttribute('aria-invalid')).toBe('true');
    expect(posts(app, '/api/user/session/info/update')).toHaveLength(0);
  });

  it('sends trimmed names, the e-mail and the pictures (empty → null), then says it saved', async () => {
    const app = await open({ 'POST /api/user/session/info/update': { body: { success: true, user_info: {}, verification_sent: true } } });
    await app.type(app.getByLabelText('First name'), '  Alicia ');
    await app.type(app.getByLabelText('Avatar URL'), 'https://cdn.example.com/a.png');
    await app.click(app.getByRole('button', 'Save profile'));
    await app.findByText(en.profile.savedVerify);
    expect(posts(app, '/api/user/session/info/update')[0].body).toEqual({
      first_name: 'Alicia',
      last_name: 'Liddell',
      email: 'alice@example.com',
      avatar: 'https://cdn.example.com/a.png',
      background: null,
    });
  });

  it("puts the server's field error on the matching input", async () => {
    const app = await open({
      'POST /api/user/session/info/update': {
        status: 409,
        body: { error: { code: 'EMAIL_TAKEN', message: 'An account with this email address already exists.', field: 'email' } },
      },
    });
    await app.type(app.getByLabelText('E-mail'), 'taken@example.com');
    await app.type(await profilePassword(app), 'correct horse');
    await app.click(app.getByRole('button', 'Save profile'));
    await app.waitFor(() => expect(app.getByLabelText('E-mail').getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(`${app.getByLabelText('E-mail').id}-error`)?.textContent).toContain(en.errors.EMAIL_TAKEN);
  });

  it('asks for the current password once the address changes, and sends it with the new one', async () => {
    const app = await open({ 'POST /api/user/session/info/update': { body: { success: true, user_info: {}, verification_sent: true } } });
    expect(profileForm().querySelector('input[name="current_password"]')).toBeNull();
    // a change of letter case is the same address
    await app.type(app.getByLabelText('E-mail'), 'Alice@Example.com');
    expect(profileForm().querySelector('input[name="current_password"]')).toBeNull();

    await app.type(app.getByLabelText('E-mail'), 'alice@new.example.com');
    const password = await profilePassword(app);
    await app.click(app.getByRole('button', 'Save profile'));
    await app.waitFor(() => expect(password.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(`${password.id}-error`)?.textContent).toContain(en.validation.required);
    expect(posts(app, '/api/user/session/info/update')).toHaveLength(0);

    await app.type(password, 'correct horse');
    await app.click(app.getByRole('button', 'Save profile'));
    await app.findByText(en.profile.savedVerify);
    expect(posts(app, '/api/user/session/info/update')[0].body).toMatchObject({ email: 'alice@new.example.com', current_password: 'correct horse' });
  });

  it('puts a wrong current password on its field', async () => {
    const app = await open({
      'POST /api/user/session/info/update': {
        status: 400,
        body: { error: { code: 'WRONG_PASSWORD', message: 'The current password is not correct.', field: 'current_password' } },
      },
    });
    await app.type(app.getByLabelText('E-mail'), 'alice@new.example.com');
    const password = await profilePassword(app);
    await app.type(password, 'not it');
    await app.click(app.getByRole('button', 'Save profile'));
    await app.waitFor(() => expect(password.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(`${password.id}-error`)?.textContent).toContain(en.errors.WRONG_PASSWORD);
  });

  it('offers to resend the verification link while the address is unverified', async () => {
    const app = await open({ 'POST /api/user/auth/verify/resend': { body: { success: true } } }, { session: { user: { ...user.user, verified: false } } });
    await app.click(app.getByRole('button', 'Send the link again'));
    await app.findByText(en.profile.verificationResent);
    expect(posts(app, '/api/user/auth/verify/resend')).toHaveLength(1);
  });

  it('shows where the e-mail link and the 2FA kill route came back from', async () => {
    const verified = await open({}, { route: '/account?email_verified=1' });
    expect(verified.getByRole('status', en.notices.emailVerified).textContent).toContain(en.notices.emailVerified);
    verified.unmount();
    const disabled = await open({}, { route: '/account?two_fa=disabled' });
    expect(disabled.getByRole('status', en.notices.twoFaDisabled).textContent).toContain(en.notices.twoFaDisabled);
  });
});

describe('account page: password', () => {
  it('checks length and confirmation first, then sends current and new password only', async () => {
    const app = await open({ 'POST /api/user/session/password/change': { body: { success: true } } });
    await app.type(app.getByLabelText('Current password'), 'old password');
    await app.type(app.getByLabelText('New password'), 'short');
    await app.type(app.getByLabelText('Confirm new password'), 'different');
    await app.click(app.getByRole('button', 'Change password'));
    await app.findByText(en.validation.passwordLength);
    expect(app.getByText(en.validation.passwordMismatch)).toBeTruthy();
    expect(posts(app, '/api/user/session/password/change')).toHaveLength(0);

    await app.type(app.getByLabelText('New password'), 'a much longer one');
    await app.type(app.getByLabelText('Confirm new password'), 'a much longer one');
    await app.click(app.getByRole('button', 'Change password'));
    await app.findByText(en.password.done);
    expect(posts(app, '/api/user/session/password/change')[0].body).toEqual({ current_password: 'old password', new_password: 'a much longer one' });
  });

  it('puts WRONG_PASSWORD on the current password field', async () => {
    const app = await open({
      'POST /api/user/session/password/change': {
        status: 400,
        body: { error: { code: 'WRONG_PASSWORD', message: 'The current password is not correct.', field: 'current_password' } },
      },
    });
    await app.type(app.getByLabelText('Current password'), 'wrong one');
    await app.type(app.getByLabelText('New password'), 'new password 1');
    await app.type(app.getByLabelText('Confirm new password'), 'new password 1');
    await app.click(app.getByRole('button', 'Change password'));
    await app.waitFor(() => expect(app.getByLabelText('Current password').getAttribute('aria-invalid')).toBe('true'));
    expect(document.body.textContent).toContain(en.errors.WRONG_PASSWORD);
  });
});

describe('account page: sessions, PIN, 2FA, activity', () => {
  it('lists sessions with device, IP and the current one marked, and signs another out after confirming', async () => {
    const app = await open({ 'DELETE /api/user/session/sessions/:id': { body: { success: true } } });
    await app.findByText('Chrome on Windows');
    expect(app.getByText('Firefox on Linux')).toBeTruthy();
    expect(app.getByText('This device')).toBeTruthy();
    expect(app.getByText('203.0.113.9')).toBeTruthy();
    // the current session has no sign-out button of its own
    expect(app.queryByRole('button', 'Sign out Chrome on Windows')).toBeNull();
    await app.click(app.getByRole('button', 'Sign out Firefox on Linux'));
    await app.answerDialog(en.sessions.revokeTitle, 'confirm');
    await app.waitFor(() => expect(app.httpCalls.some((c) => c.method === 'DELETE')).toBe(true));
    const deletion = app.httpCalls.find((c) => c.method === 'DELETE');
    expect(deletion?.path).toBe('/api/user/session/sessions/BBBBBBBBBBBBBBBBBBBBBB');
  });

  it('signs out every other session at once, taking one that already ended (404) in its stride', async () => {
    const third = { ...sessions.data[1], id: 'CCCCCCCCCCCCCCCCCCCCCC' };
    const app = await open({
      'GET /api/user/session/sessions': { body: { data: [...sessions.data, third] } },
      'DELETE /api/user/session/sessions/:id': (call) =>
        call.params.id === third.id ? { status: 404, body: { error: { code: 'SESSION_NOT_FOUND', message: 'There is no such session.' } } } : { body: { success: true } },
    });
    await app.click(await app.findByRole('button', 'Sign out other sessions'));
    await app.answerDialog(en.sessions.revokeOthersTitle, 'confirm');
    await app.waitFor(() => expect(app.httpCalls.filter((c) => c.method === 'DELETE')).toHaveLength(2));
    expect(
      app.httpCalls
        .filter((c) => c.method === 'DELETE')
        .map((c) => c.params.id)
        .sort(),
    ).toEqual(['BBBBBBBBBBBBBBBBBBBBBB', third.id]);
    // no error dialog: the 404 means the session is gone already
    await app.waitFor(() => expect(app.httpCalls.filter((c) => c.path === '/api/user/session/sessions')).toHaveLength(2));
    expect(document.querySelector('.swal2-icon-error')).toBeNull();
  });

  it('shows the support PIN and a new one after regenerating', async () => {
    const app = await open({ 'POST /api/user/session/newPin': { body: { success: true, pin: '987654' } } });
    await app.findByText('012345');
    await app.click(app.getByRole('button', 'Generate a new PIN'));
    await app.findByText('987654');
    expect(posts(app, '/api/user/session/newPin')).toHaveLength(1);
  });

  it('links to the 2FA setup, or to turning it off when it is on', async () => {
    const off = await open();
    expect(off.getByRole('link', 'Set up two-factor authentication').getAttribute('href')).toBe('/auth/2fa/setup');
    off.unmount();
    const on = await open({}, { session: { user: { ...user.user, two_fa_enabled: true } } });
    expect(on.getByRole('link', 'Turn off two-factor authentication').getAttribute('href')).toBe('/auth/2fa/setup/disband');
  });

  it('shows the activity log with translated events, paged by the server', async () => {
    const app = await open();
    await app.findByText(en.activity.actions.auth_login);
    await app.click(app.getByRole('button', 'Next'));
    await app.findByText('Account created');
    const pages = app.httpCalls.filter((c) => c.path === '/api/user/session/activities').map((c) => [c.query.get('page'), c.query.get('per_page')]);
    expect(pages).toEqual([
      ['1', '10'],
      ['2', '10'],
    ]);
  });
});

describe('account page: activity labels', () => {
  it('shows an action this catalogue does not know as recorded', async () => {
    const app = await open({
      'GET /api/user/session/activities': {
        body: {
          data: [{ id: 1, action: 'store.purchase', by: 'self', details: {}, ip: null, created_at: '2026-01-02T10:00:00.000Z' }],
          meta: { page: 1, per_page: 10, total: 1, total_pages: 1 },
        },
      },
    });
    await app.findByText('store.purchase');
    expect(app.getByText(en.activity.actors.self)).toBeTruthy();
  });
});

describe('account page: delete account', () => {
  it('asks for the password, confirms in a dialog, deletes and signs out', async () => {
    const app = await open({
      'POST /api/user/session/delete-account': { body: { success: true } },
      'POST /api/user/auth/logout': { body: { success: true } },
    });
    await app.click(app.getByRole('button', 'Delete my account'));
    await app.waitFor(() => expect(app.getByLabelText('Your password').getAttribute('aria-invalid')).toBe('true'));
    await app.type(app.getByLabelText('Your password'), 'my password');
    await app.click(app.getByRole('button', 'Delete my account'));
    await app.answerDialog(en.delete.confirmTitle, 'confirm');
    await app.waitFor(() => expect(app.location().pathname).toBe('/auth/login'), { timeout: 5000 });
    expect(posts(app, '/api/user/session/delete-account')[0].body).toEqual({ password: 'my password' });
  });

  it('sends nothing when the dialog is cancelled', async () => {
    const app = await open();
    await app.type(app.getByLabelText('Your password'), 'my password');
    await app.click(app.getByRole('button', 'Delete my account'));
    await app.answerDialog(en.delete.confirmTitle, 'cancel');
    // the submit button stops spinning once the form's handler returned
    await app.waitFor(() => expect(app.getByRole('button', 'Delete my account').hasAttribute('disabled')).toBe(false));
    expect(posts(app, '/api/user/session/delete-account')).toHaveLength(0);
  });
});

describe('account page: mail', () => {
  const news = { plugin: 'announcements', key: 'announcements', label: { en: 'Announcements by mail', ro: 'Anunțuri prin e-mail' }, accepts: true };
  const puts = (app: App) => app.httpCalls.filter((call) => call.method === 'PUT' && call.path === '/api/user/mail-preferences');

  it('shows each preference the server lists as a checkbox and saves a change at once', async () => {
    const app = await open({
      'GET /api/user/mail-preferences': { body: { preferences: [news] } },
      'PUT /api/user/mail-preferences': { body: { preferences: [{ ...news, accepts: false }] } },
    });
    const box = (await app.waitFor(() => app.getByLabelText('Announcements by mail'))) as HTMLInputElement;
    expect(box.checked).toBe(true);
    await app.click(box);
    await app.waitFor(() => expect((app.getByLabelText('Announcements by mail') as HTMLInputElement).checked).toBe(false));
    expect(puts(app).map((call) => call.body)).toEqual([{ preferences: [{ plugin: 'announcements', key: 'announcements', accepts: false }] }]);
  });

  it('says when there is nothing to choose, and shows a failed save plainly', async () => {
    const empty = await open();
    await empty.findByText(en.mail.none);
    cleanup();
    const app = await open({
      'GET /api/user/mail-preferences': { body: { preferences: [news] } },
      'PUT /api/user/mail-preferences': { status: 400, body: { error: { code: 'UNKNOWN_MAIL_PREFERENCE', message: 'No enabled plugin declares it.', field: 'preferences' } } },
    });
    await app.click(await app.waitFor(() => app.getByLabelText('Announcements by mail')));
    await app.findByText('No enabled plugin declares it.');
    expect((app.getByLabelText('Announcements by mail') as HTMLInputElement).checked).toBe(true);
  });
});
