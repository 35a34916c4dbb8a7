// Errors: thrown from a handler, turned by the host into `{ error: { code, message, field? } }`.
// Branded by a string, not a class: a built plugin bundles its own copy of this module.
export const HTTP_ERROR_BRAND = '@orepanel/http-error';

export interface HttpError extends Error {
  readonly $$type: typeof HTTP_ERROR_BRAND;
  readonly statusCode: number;
  readonly code: string;
  readonly field?: string;
}

export function httpError(statusCode: number, code: string, message: string, field?: string): HttpError {
  if (!Number.isInteger(statusCode) || statusCode < 400 || statusCode > 599) {
    throw new RangeError(`httpError: status ${statusCode} is not an HTTP error status`);
  }
  const error = new Error(message) as Error & { $$type: string; statusCode: number; code: string; field?: string };
  error.name = 'HttpError';
  error.$$type = HTTP_ERROR_BRAND;
  error.statusCode = statusCode;
  error.code = code;
  if (field !== undefined) error.field = field;
  return error as HttpError;
}

export function isHttpError(value: unknown): value is HttpError {
  return value instanceof Error && (value as { $$type?: unknown }).$$type === HTTP_ERROR_BRAND;
}
