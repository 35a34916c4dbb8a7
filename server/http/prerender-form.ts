// issue 15: a pre-rendered page's form works before (and without) any script. The page's <form
// method="post"> posts its fields (application/x-www-form-urlencoded) to the page's own path; when the
// route declares `prerender.form`, the server hands the fields, as the JSON body the page's script
// would send, to that API route of the plugin — through the app itself, so the route's own rules all
// apply unchanged (origin check, rate limits with the same address, captcha, validation, audit) and
// the session cookie is the one the API sets. Then:
//   accepted  -> 303 to `then`, or to the two-factor page when the new session waits for its code
//                (spec §4, as the kernel's session handling does);
//   refused   -> the page again, with the API's error at the top of the form and the `keep` fields
//                filled in, under the API's status (a 429 keeps its Retry-After).
// A pre-rendered page whose route declares no form, answered the same way, says that it needs its
// script (SCRIPT_REQUIRED). A cross-site post never gets this far: the origin check refuses it.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PrerenderForm } from '../../sdk/types';
import { sendNotFound } from './errors';
import { INDEX_CONTENT_TYPE } from './index-document';
import { languageOf, type PrerenderedForm, type PrerenderedPages } from './prerender';

/** spec §4: where a session waiting for its TOTP check is sent (kernel/session/session-manager.ts). */
export const TWO_FA_VERIFY_PATH = '/auth/2fa/verify';
const TWO_FA_BLOCKED = 'TW0_FA_BLOCKED';
const SESSION_API = '/api/user/session';
/** A login form is a few short fields. */
const FORM_BODY_LIMIT = 16 * 1024;
const MAX_FIELDS = 32;
const FIELD_NAME = /^[a-z][a-z0-9_]{0,63}$/;
/** The sdk's code for a form that needs its page's script (sdk/client/ui/form-context.ts). */
const SCRIPT_REQUIRED = 'SCRIPT_REQUIRED';

/** Request headers the relayed call keeps, so the API sees the same browser, address and session. */
const RELAYED_HEADERS = [
  'cookie',
  'user-agent',
  'origin',
  'referer',
  'accept-language',
  'host',
  'x-forwarded-for',
  'x-forwarded-proto',
  'x-forwarded-host',
  'x-real-ip',
  'forwarded',
];

/** The posted fields: the first value of each plainly named field (a form's own names). */
export function formFields(body: string): Record<string, string> {
  const fields: Record<string, string> = {};
  let count = 0;
  for (const [name, value] of new URLSearchParams(body)) {
    if (!FIELD_NAME.test(name) || Object.hasOwn(fields, name)) continue;
    if (++count > MAX_FIELDS) break;
    fields[name] = value;
  }
  return fields;
}

/** The Cookie header after the answer's Set-Cookie lines (what the browser would send next). */
function cookiesAfter(cookieHeader: string | undefined, setCookie: string[]): string {
  const jar = new Map<string, string>();
  for (const part of (cookieHeader ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0) jar.set(part.slice(0, at).trim(), part.slice(at + 1).trim());
  }
  for (const line of setCookie) {
    const pair = line.split(';')[0];
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    const name = pair.slice(0, at).trim();
    const value = pair.slice(at + 1).trim();
    if (value === '' || /;\s*max-age=0/i.test(line)) jar.delete(name);
    else jar.set(name, value);
  }
  return [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
}

function asList(value: string | string[] | undefined): string[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

function errorOf(status: number, body: string): PrerenderedForm['error'] {
  try {
    const parsed = JSON.parse(body) as { error?: { code?: unknown; message?: unknown; field?: unknown } };
    const e = parsed.error;
    if (e && typeof e.code === 'string' && typeof e.message === 'string') {
      return { status, code: e.code, message: e.message, ...(typeof e.field === 'string' ? { field: e.field } : {}) };
    }
  } catch {
    // not JSON: a failure of the server itself
  }
  return { status, code: 'SERVER_ERROR', message: 'The server had a problem. Please try again later.' };
}

export interface PrerenderFormOptions {
  pages: PrerenderedPages;
  /** dist/public (its index.html is the page's template) */
  publicDir: string;
}

/** POST of a pre-rendered page's own path: the form sent before (or without) the page's script. */
export async function registerPrerenderForms(app: FastifyInstance, { pages, publicDir }: PrerenderFormOptions): Promise<void> {
  const showAgain = async (request: FastifyRequest, reply: FastifyReply, path: string, form: PrerenderedForm, headers: Record<string, string> = {}) => {
    let template: string;
    try {
      template = await readFile(join(publicDir, 'index.html'), 'utf8');
    } catch {
      return reply.code(503).type('text/plain; charset=utf-8').header('cache-control', 'no-store').send('The panel has not been built yet: run npm run build.');
    }
    const html = await pages.pageWithForm(template, path, languageOf(request), form);
    reply.code(form.error.status).header('cache-control', 'no-store').headers(headers);
    // without its renderer the page cannot show the error: the API's answer is still the truth
    if (html === null) return reply.type('application/json; charset=utf-8').send({ error: form.error });
    return reply.type(INDEX_CONTENT_TYPE).send(html);
  };

  const relay = async (request: FastifyRequest, reply: FastifyReply, path: string, form: PrerenderForm, fields: Record<string, string>) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    for (const name of RELAYED_HEADERS) {
      const value = request.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const answer = await app.inject({ method: 'POST', url: form.api, headers, payload: JSON.stringify(fields), remoteAddress: request.socket.remoteAddress });
    const setCookie = asList(answer.headers['set-cookie'] as string | string[] | undefined);
    if (setCookie.length > 0) reply.header('set-cookie', setCookie);
    if (answer.statusCode >= 200 && answer.statusCode < 300) {
      // the session the API just started may wait for its TOTP code: the kernel would go there too
      const session = await app.inject({
        method: 'GET',
        url: SESSION_API,
        headers: { ...headers, cookie: cookiesAfter(request.headers.cookie, setCookie) },
        remoteAddress: request.socket.remoteAddress,
      });
      const blocked = session.statusCode === 401 && (session.json() as { error_code?: unknown }).error_code === TWO_FA_BLOCKED;
      return reply
        .code(303)
        .header('cache-control', 'no-store')
        .header('location', blocked && path !== TWO_FA_VERIFY_PATH ? TWO_FA_VERIFY_PATH : form.then)
        .send();
    }
    const kept = Object.fromEntries((form.keep ?? []).filter((name) => typeof fields[name] === 'string').map((name) => [name, fields[name]]));
    const retryAfter = answer.headers['retry-after'];
    return showAgain(request, reply, path, { error: errorOf(answer.statusCode, answer.body), values: kept }, typeof retryAfter === 'string' ? { 'retry-after': retryAfter } : {});
  };

  await app.register(async (scope) => {
    // only here: the API itself still takes JSON alone
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT }, (_request, body, done) => done(null, body));
    scope.post('/*', { schema: { params: { type: 'object', properties: { '*': { type: 'string', maxLength: 2048 } } } } }, async (request, reply) => {
      const rawPath = request.url.split('?')[0];
      if (rawPath === '/api' || rawPath.startsWith('/api/') || request.url.includes('?')) return sendNotFound(reply);
      let path: string;
      try {
        path = decodeURIComponent(rawPath);
      } catch {
        return sendNotFound(reply);
      }
      const found = await pages.routeAt(path);
      if (!found) return sendNotFound(reply);
      const body = typeof request.body === 'string' ? request.body : null;
      const prerender = found.route.prerender;
      if (body === null || typeof prerender !== 'object' || !prerender.form) {
        return showAgain(request, reply, path, {
          error: { status: 400, code: SCRIPT_REQUIRED, message: 'This form needs JavaScript: please enable it in your browser and reload the page.' },
          values: {},
        });
      }
      return relay(request, reply, path, prerender.form, formFields(body));
    });
  });
}
