// One nodemailer SMTP transport, rebuilt whenever the SMTP settings change (an administrator can
// switch servers without a restart).
import nodemailer, { type Transporter } from 'nodemailer';
import type { SmtpSettings } from './mail-settings';

export interface OutgoingMail {
  to: string;
  subject: string;
  html: string;
  text: string;
}

export class SmtpSender {
  private transport: Transporter | null = null;
  private signature = '';

  private transportFor(settings: SmtpSettings): Transporter {
    const signature = JSON.stringify(settings);
    if (this.transport && signature === this.signature) return this.transport;
    this.transport?.close();
    this.transport = nodemailer.createTransport({
      host: settings.host,
      port: settings.port,
      // ssl: TLS from the first byte (465); tls: STARTTLS, refused if the server cannot (587);
      // none: plain text, never upgraded
      secure: settings.encryption === 'ssl',
      requireTLS: settings.encryption === 'tls',
      ignoreTLS: settings.encryption === 'none',
      auth: settings.user ? { user: settings.user, pass: settings.pass } : undefined,
      // shorter than the queue's lease, so a hung server never lets two instances send one mail
      connectionTimeout: 20_000,
      greetingTimeout: 15_000,
      socketTimeout: 30_000,
    });
    this.signature = signature;
    return this.transport;
  }

  async send(settings: SmtpSettings, mail: OutgoingMail): Promise<void> {
    const transport = this.transportFor(settings);
    await transport.sendMail({ from: settings.from, to: mail.to, subject: mail.subject, html: mail.html, text: mail.text || undefined });
  }

  close(): void {
    this.transport?.close();
    this.transport = null;
  }
}
