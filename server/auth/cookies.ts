// The two login cookies. `op_session` carries the secret token (HttpOnly, the only thing the server
// authenticates by); `user_token` is a non-secret marker (the session's public id) that the kernel
// reads to decide "logged in" (spec §4, §9: cookie name user_token). Same attributes otherwise.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE as MARKER_COOKIE } from '../../sdk/types';

export const TOKEN_COOKIE = 'op_session';
export { MARKER_COOKIE };

/** Reads one cookie from a Cookie header without parsing the rest (the session hot path). */
export function readCookie(header: string | undefined, name: string): string | null {
  if (!header) return null;
  let from = 0;
  for (;;) {
    const at = header.indexOf(name, from);
    if (at === -1) return null;
    const before = at === 0 ? ' ' : header[at - 1];
    const after = header[at + name.length];
    if ((before === ' ' || before === ';') && after === '=') {
      const start = at + name.length + 1;
      const end = header.indexOf(';', start);
      const value = (end === -1 ? header.slice(start) : header.slice(start, end)).trim();
      return value.length > 0 ? value : null;
    }
    from = at + name.length;
  }
}

function attributes(request: FastifyRequest, maxAgeSeconds: number): string {
  // Secure when the browser talks https to us (directly, or through a trusted proxy's X-Forwarded-Proto)
  const secure = request.protocol === 'https' ? '; Secure' : '';
  const expiry = maxAgeSeconds > 0 ? `; Max-Age=${maxAgeSeconds}` : '; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT';
  return `; Path=/; SameSite=Lax${expiry}${secure}`;
}

export function setLoginCookies(request: FastifyRequest, reply: FastifyReply, token: string, publicId: string, maxAgeSeconds: number): void {
  const attrs = attributes(request, maxAgeSeconds);
  reply.header('set-cookie', [`${TOKEN_COOKIE}=${token}${attrs}; HttpOnly`, `${MARKER_COOKIE}=${publicId}${attrs}`]);
}

export function clearLoginCookies(request: FastifyRequest, reply: FastifyReply): void {
  const attrs = attributes(request, 0);
  reply.header('set-cookie', [`${TOKEN_COOKIE}=${attrs}; HttpOnly`, `${MARKER_COOKIE}=${attrs}`]);
}
