// The SMTP settings (reference: smtp_host, smtp_port, smtp_user, smtp_pass, smtp_from,
// smtp_encryption). Mail is on exactly when smtp_host is set; none of them is served to browsers.
// Where mail goes (host, port, encryption) is root-only: reset links travel in it.
import type { ManifestSetting } from '../../sdk/types';
import type { SettingsStore } from '../settings/store';

export const SMTP_ENCRYPTIONS = ['none', 'ssl', 'tls'] as const;
export type SmtpEncryption = (typeof SMTP_ENCRYPTIONS)[number];

export const MAIL_SETTINGS: readonly ManifestSetting[] = [
  { key: 'smtp_host', type: 'string', default: '', public: false, secret: false, label: 'SMTP server host (empty: mail is off)', rootOnly: true },
  { key: 'smtp_port', type: 'number', default: 587, public: false, secret: false, label: 'SMTP server port', min: 1, max: 65535, rootOnly: true },
  { key: 'smtp_user', type: 'string', default: '', public: false, secret: false, label: 'SMTP user name (empty: no authentication)' },
  { key: 'smtp_pass', type: 'string', default: '', public: false, secret: true, label: 'SMTP password' },
  { key: 'smtp_from', type: 'string', default: '', public: false, secret: false, label: 'Sender address, e.g. Orepanel <no-reply@example.com>' },
  {
    key: 'smtp_encryption',
    type: 'select',
    default: 'tls',
    options: [...SMTP_ENCRYPTIONS],
    public: false,
    secret: false,
    label: 'Encryption: tls = STARTTLS (port 587), ssl = TLS from the start (port 465), none = plain',
    rootOnly: true,
  },
];

export interface SmtpSettings {
  host: string;
  port: number;
  user: string;
  pass: string;
  from: string;
  encryption: SmtpEncryption;
}

export async function readSmtpSettings(settings: SettingsStore): Promise<SmtpSettings> {
  const v = await settings.getMany(['smtp_host', 'smtp_port', 'smtp_user', 'smtp_pass', 'smtp_from', 'smtp_encryption', 'app_name']);
  const user = String(v.smtp_user ?? '').trim();
  const configuredFrom = String(v.smtp_from ?? '').trim();
  // a bare address gets the application's name as its display name
  const address = configuredFrom || (user.includes('@') ? user : `no-reply@${String(v.smtp_host ?? '').trim() || 'localhost'}`);
  const from = /[<>]/.test(address) ? address : `"${String(v.app_name ?? 'Orepanel').replace(/["\\\r\n]/g, '')}" <${address}>`;
  return {
    host: String(v.smtp_host ?? '').trim(),
    port: Number(v.smtp_port) || 587,
    user,
    pass: String(v.smtp_pass ?? ''),
    from,
    encryption: (SMTP_ENCRYPTIONS as readonly string[]).includes(String(v.smtp_encryption)) ? (v.smtp_encryption as SmtpEncryption) : 'tls',
  };
}
