// One error shape for every API answer that is not a success: `{ error: { code, message, field? } }`.
// Bad input is always a 4xx with a readable message; only our own faults are 500s, logged with the
// request id and answered without internals.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { isHttpError } from '../../sdk/server';
import { isStoreUnavailable } from '../db/connect';

export interface ErrorBody {
  error: { code: string; message: string; field?: string };
}

export function errorBody(code: string, message: string, field?: string): ErrorBody {
  return { error: field === undefined ? { code, message } : { code, message, field } };
}

/** Response schema of the error shape (fast serialisation, and documents it): the sdk's, which plugins' routes use too. */
export { errorResponseSchema } from '../../sdk/server';

interface AjvIssue {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, unknown>;
}

function fieldOf(issue: AjvIssue): string | undefined {
  const path = issue.instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (issue.keyword === 'required' && typeof issue.params.missingProperty === 'string') {
    return path ? `${path}.${issue.params.missingProperty}` : issue.params.missingProperty;
  }
  if (issue.keyword === 'additionalProperties' && typeof issue.params.additionalProperty === 'string') {
    return path ? `${path}.${issue.params.additionalProperty}` : issue.params.additionalProperty;
  }
  return path || undefined;
}

/** A sentence a person can read, e.g. "username must be at least 3 characters." */
export function describeIssue(issue: AjvIssue, context: string): { field?: string; message: string } {
  const field = fieldOf(issue);
  const subject = field ?? (context === 'body' ? 'The request body' : `The ${context}`);
  const p = issue.params;
  switch (issue.keyword) {
    case 'required':
      return { field, message: `${subject} is required.` };
    case 'minLength':
      return { field, message: Number(p.limit) === 1 ? `${subject} must not be empty.` : `${subject} must be at least ${String(p.limit)} characters.` };
    case 'maxLength':
      return { field, message: `${subject} must be at most ${String(p.limit)} characters.` };
    case 'pattern':
    case 'format':
      return { field, message: `${subject} has an invalid format.` };
    case 'type':
      return { field, message: `${subject} must be ${String(p.type).replace(/,/g, ' or ')}.` };
    case 'enum':
      return { field, message: `${subject} must be one of: ${(p.allowedValues as unknown[] | undefined)?.join(', ') ?? ''}.` };
    case 'minimum':
    case 'exclusiveMinimum':
      return { field, message: `${subject} must be ${issue.keyword === 'minimum' ? 'at least' : 'greater than'} ${String(p.limit)}.` };
    case 'maximum':
    case 'exclusiveMaximum':
      return { field, message: `${subject} must be ${issue.keyword === 'maximum' ? 'at most' : 'less than'} ${String(p.limit)}.` };
    case 'additionalProperties':
      return { field, message: `${subject} is not an accepted field.` };
    default:
      return { field, message: `${subject} ${issue.message ?? 'is invalid'}.` };
  }
}

const FASTIFY_CODES: Record<string, { status: number; code: string; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'INVALID_JSON', message: 'The request body is not valid JSON.' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'INVALID_JSON', message: 'The request body is empty but JSON was announced.' },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'The request body is too large.' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Send the request body as application/json.' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'BAD_REQUEST', message: 'The Content-Length header does not match the body.' },
  FST_ERR_BAD_URL: { status: 400, code: 'BAD_REQUEST', message: 'The request address is malformed.' },
  FST_ERR_MAX_PARAM_LENGTH: { status: 414, code: 'URI_TOO_LONG', message: 'The request address is too long.' },
  FST_ERR_ASYNC_CONSTRAINT: { status: 400, code: 'BAD_REQUEST', message: 'The request could not be routed.' },
};

const STATUS_CODES: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  406: 'NOT_ACCEPTABLE',
  408: 'REQUEST_TIMEOUT',
  409: 'CONFLICT',
  411: 'LENGTH_REQUIRED',
  413: 'PAYLOAD_TOO_LARGE',
  414: 'URI_TOO_LONG',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  416: 'RANGE_NOT_SATISFIABLE',
  429: 'TOO_MANY_REQUESTS',
  431: 'HEADERS_TOO_LARGE',
};

export function sendError(reply: FastifyReply, status: number, body: ErrorBody): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').header('cache-control', 'no-store').send(body);
}

/** Maps any error to the status and body we answer with. */
export function classifyError(error: unknown): { status: number; body: ErrorBody } {
  if (isHttpError(error)) return { status: error.statusCode, body: errorBody(error.code, error.message, error.field) };
  const e = error as FastifyError & { validation?: AjvIssue[]; validationContext?: string };
  if (Array.isArray(e.validation) && e.validation.length > 0) {
    const { field, message } = describeIssue(e.validation[0], e.validationContext ?? 'body');
    return { status: 400, body: errorBody('VALIDATION_ERROR', message, field) };
  }
  const known = typeof e.code === 'string' ? FASTIFY_CODES[e.code] : undefined;
  if (known) return { status: known.status, body: errorBody(known.code, known.message) };
  if (e instanceof SyntaxError) return { status: 400, body: errorBody('INVALID_JSON', 'The request body is not valid JSON.') };
  // the database is away (restarting, failing over): not our fault and not for good — the client may retry
  if (isStoreUnavailable(error))
    return { status: 503, body: errorBody('STORE_UNAVAILABLE', 'The panel cannot reach its database (or another service it needs) right now. Try again in a moment.') };
  const status = typeof e.statusCode === 'number' ? e.statusCode : 500;
  if (status >= 400 && status < 500) {
    return { status, body: errorBody(STATUS_CODES[status] ?? 'BAD_REQUEST', 'The request cannot be processed.') };
  }
  return { status: 500, body: errorBody('INTERNAL_ERROR', 'Something went wrong.') };
}

export function handleError(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const { status, body } = classifyError(error);
  if (status === 503) {
    request.log.warn({ err: error, reqId: request.id, url: request.url }, 'request answered 503: the database is unreachable');
    reply.header('retry-after', '5');
  } else if (status >= 500) {
    request.log.error({ err: error, reqId: request.id, url: request.url }, 'request failed');
    reply.header('x-request-id', String(request.id));
  } else if (status !== 401 && status !== 404) {
    request.log.debug({ err: error, code: body.error.code }, 'request refused');
  }
  return sendError(reply, status, body);
}

export function sendNotFound(reply: FastifyReply): FastifyReply {
  return sendError(reply, 404, errorBody('NOT_FOUND', 'Not found.'));
}
