// Security headers on every answer. The CSP allows 'unsafe-eval' for scripts because tapable (the
// kernel's lifecycle hooks) compiles with new Function; custom.js is served from our own origin;
// inline styles are emotion's; the ad provider's and Cloudflare Turnstile's (the captcha, loaded only
// when the captcha setting is on) scripts and frames are allowed by host.
import type { FastifyReply, FastifyRequest } from 'fastify';

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-eval' https://pagead2.googlesyndication.com https://challenges.cloudflare.com",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: https:",
  "connect-src 'self'",
  'frame-src https://googleads.g.doubleclick.net https://tpc.googlesyndication.com https://challenges.cloudflare.com',
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "object-src 'none'",
].join('; ');

export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()',
});

/** onRequest hook: set before any handler runs, so error and 404 answers carry them too. */
export function addSecurityHeaders(_request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  reply.headers(SECURITY_HEADERS);
  done();
}
