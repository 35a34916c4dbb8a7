// The mail templates a fresh panel starts with (reference behaviour: verify, reset_password,
// new_login, welcome, server_renewal_reminder, server_suspended, server_deleted). Administrators edit
// them under /mc-admin/mail-templates; the seeded ones can be edited but not deleted, because the
// panel sends them by name. Placeholders are written ${name}; app_name and app_url are always filled.

export interface SeededTemplate {
  name: string;
  description: string;
  subject: string;
  html: string;
  text: string;
  /** the placeholders this template is sent with (besides app_name and app_url) */
  placeholders: readonly string[];
}

function layout(title: string, body: string): string {
  return [
    '<!doctype html>',
    '<html><body style="margin:0;padding:24px;background:#0f1117;font-family:Arial,Helvetica,sans-serif;color:#e6e8ee">',
    '<div style="max-width:560px;margin:0 auto;background:#171a23;border-radius:12px;padding:32px">',
    '<h1 style="margin:0 0 16px;font-size:20px;color:#ffffff">' + title + '</h1>',
    body,
    '<p style="margin:32px 0 0;font-size:12px;color:#8a90a2">${app_name} · <a href="${app_url}" style="color:#8a90a2">${app_url}</a></p>',
    '</div></body></html>',
  ].join('\n');
}

function button(label: string): string {
  return `<p><a href="\${link}" style="display:inline-block;padding:12px 20px;background:#4f7cff;color:#ffffff;border-radius:8px;text-decoration:none">${label}</a></p>\n<p style="font-size:12px;color:#8a90a2">\${link}</p>`;
}

const USER = ['first_name', 'last_name', 'username', 'email'] as const;

export const SEEDED_MAIL_TEMPLATES: readonly SeededTemplate[] = [
  {
    name: 'verify',
    description: 'Sent after registration and after an e-mail change, when mail is enabled.',
    subject: 'Verify your e-mail address for ${app_name}',
    html: layout(
      'Verify your e-mail address',
      '<p>Hello ${first_name},</p>\n<p>Please confirm that this address belongs to you. The link is valid for 24 hours.</p>\n' + button('Verify e-mail'),
    ),
    text: 'Hello ${first_name},\n\nPlease confirm that this address belongs to you (the link is valid for 24 hours):\n${link}\n\n${app_name}',
    placeholders: [...USER, 'link'],
  },
  {
    name: 'reset_password',
    description: 'Sent when someone asks to reset the password of an account.',
    subject: 'Reset your ${app_name} password',
    html: layout(
      'Reset your password',
      '<p>Hello ${first_name},</p>\n<p>Someone asked to reset the password of your account. The link is valid for one hour and works once.</p>\n' +
        button('Choose a new password') +
        '\n<p>If it was not you, ignore this mail: your password stays as it is.</p>',
    ),
    text: 'Hello ${first_name},\n\nSomeone asked to reset the password of your account. Open this link within one hour to choose a new one:\n${link}\n\nIf it was not you, ignore this mail.\n\n${app_name}',
    placeholders: [...USER, 'link'],
  },
  {
    name: 'new_login',
    description: 'Sent when the account signs in.',
    subject: 'New sign-in to your ${app_name} account',
    html: layout(
      'New sign-in',
      '<p>Hello ${first_name},</p>\n<p>Your account signed in at ${time} from ${ip} (${user_agent}).</p>\n<p>If it was not you, change your password at once.</p>',
    ),
    text: 'Hello ${first_name},\n\nYour account signed in at ${time} from ${ip} (${user_agent}).\nIf it was not you, change your password at once.\n\n${app_name}',
    placeholders: [...USER, 'ip', 'user_agent', 'time'],
  },
  {
    name: 'welcome',
    description: 'Sent once the e-mail address is verified.',
    subject: 'Welcome to ${app_name}',
    html: layout('Welcome, ${first_name}!', '<p>Your account ${username} is ready.</p>\n' + button('Open the dashboard')),
    text: 'Welcome, ${first_name}!\n\nYour account ${username} is ready: ${link}\n\n${app_name}',
    placeholders: [...USER, 'link'],
  },
  {
    name: 'server_renewal_reminder',
    description: 'Sent when a server is about to expire.',
    subject: 'Your server ${server_name} expires in ${days_left} days',
    html: layout(
      'Renew ${server_name}',
      '<p>Hello ${first_name},</p>\n<p>Your server ${server_name} expires on ${expires_at} (${days_left} days left).</p>\n' + button('Renew now'),
    ),
    text: 'Hello ${first_name},\n\nYour server ${server_name} expires on ${expires_at} (${days_left} days left). Renew it here: ${link}\n\n${app_name}',
    placeholders: [...USER, 'server_name', 'expires_at', 'days_left', 'link'],
  },
  {
    name: 'server_suspended',
    description: 'Sent when a server is suspended because it was not renewed.',
    subject: 'Your server ${server_name} has been suspended',
    html: layout(
      '${server_name} is suspended',
      '<p>Hello ${first_name},</p>\n<p>Your server ${server_name} expired on ${expires_at} and has been suspended. Renew it to bring it back.</p>\n' + button('Renew now'),
    ),
    text: 'Hello ${first_name},\n\nYour server ${server_name} expired on ${expires_at} and has been suspended. Renew it here: ${link}\n\n${app_name}',
    placeholders: [...USER, 'server_name', 'expires_at', 'link'],
  },
  {
    name: 'server_deleted',
    description: 'Sent when a suspended server is deleted after the grace period.',
    subject: 'Your server ${server_name} has been deleted',
    html: layout('${server_name} was deleted', '<p>Hello ${first_name},</p>\n<p>Your server ${server_name} stayed suspended past the grace period and has been deleted.</p>'),
    text: 'Hello ${first_name},\n\nYour server ${server_name} stayed suspended past the grace period and has been deleted.\n\n${app_name}',
    placeholders: [...USER, 'server_name'],
  },
];

export const SEEDED_TEMPLATE_NAMES: ReadonlySet<string> = new Set(SEEDED_MAIL_TEMPLATES.map((t) => t.name));

/** Sample values for the admin preview: every placeholder a seeded template uses. */
export const SAMPLE_PLACEHOLDERS: Readonly<Record<string, string>> = Object.freeze({
  first_name: 'Ada',
  last_name: 'Lovelace',
  username: 'ada',
  email: 'ada@example.com',
  link: 'https://panel.example.com/auth/reset-password?token=sample',
  ip: '203.0.113.7',
  user_agent: 'Mozilla/5.0 (sample)',
  time: '2026-01-01 12:00 UTC',
  server_name: 'survival-1',
  expires_at: '2026-01-08',
  days_left: '7',
});
