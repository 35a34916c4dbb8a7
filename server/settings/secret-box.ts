// Secret settings (smtp_pass, API keys…) are stored encrypted with SECRET_KEY: AES-256-GCM, a fresh
// 96-bit IV per value, written `enc:v1:<iv>:<tag>:<ciphertext>` (base64url). A database dump alone
// does not reveal them. A value stored before encryption existed (no prefix) is read as it is.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const PREFIX = 'enc:v1:';

export class SecretBox {
  private readonly key: Buffer;

  constructor(secretKey: string) {
    // a fixed-length key from a passphrase of any length, bound to this use
    this.key = createHash('sha256').update(`orepanel:settings:${secretKey}`).digest();
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${PREFIX}${iv.toString('base64url')}:${cipher.getAuthTag().toString('base64url')}:${data.toString('base64url')}`;
  }

  static isSealed(text: string): boolean {
    return text.startsWith(PREFIX);
  }

  /** The plain text, or null when it was sealed with another key (or tampered with). */
  open(text: string): string | null {
    if (!SecretBox.isSealed(text)) return text;
    const [iv, tag, data] = text.slice(PREFIX.length).split(':');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv ?? '', 'base64url'));
      decipher.setAuthTag(Buffer.from(tag ?? '', 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(data ?? '', 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }
}
