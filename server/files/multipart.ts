// Whether a request carries a multipart form: the input policy (which routes take one) and the file
// service (which reads it) must agree on the same test.
import type { FastifyRequest } from 'fastify';

export function isMultipart(request: FastifyRequest): boolean {
  return /^multipart\//i.test(request.headers['content-type'] ?? '');
}
