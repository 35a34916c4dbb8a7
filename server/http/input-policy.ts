// The one input policy of the API, set once in the host so no route (core or plugin) can forget it:
// - JSON bodies are taken as sent: never coerced ("5" is not 5, [5] is not 5), and an unknown
//   property is refused (400 naming it) instead of being dropped;
// - query strings, path params and headers are converted only to the type their schema declares,
//   and only from the plain decimal spelling of a finite number ("0x10", " 5", "1e309" stay strings
//   and fail the type check);
// - a non-finite number, or a string holding a NUL character, is refused anywhere;
// - every integer or number a schema accepts has both bounds — a route that declares one without
//   them fails to register, naming the route and the field.
// Ajv's own coercion is off everywhere: the conversion below is the only one.
import { compiledBySchemaText } from './schema-compilers';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import type { FastifyRequest, FastifySchemaCompiler, FastifySchemaValidationError, RouteOptions } from 'fastify';
import { httpError, type UploadedForm } from '../../sdk/server';
import { checkUploadConfig } from '../files/file-service';
import { isMultipart } from '../files/multipart';

type Schema = Record<string, unknown>;
type HttpPart = 'body' | 'querystring' | 'params' | 'headers';

const ajv = new Ajv({ allErrors: false, coerceTypes: false, removeAdditional: false, useDefaults: true, strict: false });

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

function typesOf(schema: Schema): string[] {
  const type = schema.type;
  if (typeof type === 'string') return [type];
  if (Array.isArray(type)) return type.filter((t): t is string => typeof t === 'string');
  return [];
}

const SUBSCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;
const SUBSCHEMA_ONE = ['items', 'not', 'if', 'then', 'else', 'additionalProperties', 'contains'] as const;

/**
 * A copy of the schema in which every object that lists its properties and says nothing about
 * others refuses them. Routes that mean to accept any key say so (`additionalProperties: true` or a
 * schema), which is then a visible decision in the route's own code.
 */
export function closeObjects(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closeObjects);
  if (!isSchema(schema)) return schema;
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties' && isSchema(value)) {
      out.properties = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, closeObjects(sub)]));
    } else if ((SUBSCHEMA_LISTS as readonly string[]).includes(key) || (SUBSCHEMA_ONE as readonly string[]).includes(key)) {
      out[key] = closeObjects(value);
    } else {
      out[key] = value;
    }
  }
  const declaresOthers = 'additionalProperties' in schema || 'patternProperties' in schema || 'unevaluatedProperties' in schema;
  if (isSchema(schema.properties) && !declaresOthers) out.additionalProperties = false;
  return out;
}

/** Every `integer` / `number` in the schema that lacks a lower or an upper bound, as paths. */
export function unboundedNumbers(schema: unknown, path = ''): string[] {
  if (Array.isArray(schema)) return schema.flatMap((item, i) => unboundedNumbers(item, `${path}[${i}]`));
  if (!isSchema(schema)) return [];
  const found: string[] = [];
  const numeric = typesOf(schema).some((t) => t === 'integer' || t === 'number');
  const enumerated = Array.isArray(schema.enum) || 'const' in schema;
  if (numeric && !enumerated) {
    const low = typeof schema.minimum === 'number' || typeof schema.exclusiveMinimum === 'number';
    const high = typeof schema.maximum === 'number' || typeof schema.exclusiveMaximum === 'number';
    if (!low || !high) found.push(path || '(root)');
  }
  if (isSchema(schema.properties)) {
    for (const [name, sub] of Object.entries(schema.properties)) found.push(...unboundedNumbers(sub, path ? `${path}.${name}` : name));
  }
  for (const key of [...SUBSCHEMA_LISTS, ...SUBSCHEMA_ONE]) {
    if (key in schema) found.push(...unboundedNumbers(schema[key], `${path}${path ? '.' : ''}${key}`));
  }
  return found;
}

const INTEGER_TEXT = /^-?(0|[1-9][0-9]{0,15})$/;
const NUMBER_TEXT = /^-?(0|[1-9][0-9]{0,15})(\.[0-9]{1,16})?$/;

/** The one conversion of a query/path/header string: to the declared type, from its plain spelling. */
function convertText(text: string, schema: Schema): unknown {
  const types = typesOf(schema);
  if (types.includes('string')) return text;
  if (types.includes('integer') && INTEGER_TEXT.test(text)) {
    const value = Number(text);
    return Number.isSafeInteger(value) ? value : text;
  }
  if (types.includes('number') && NUMBER_TEXT.test(text)) return Number(text);
  if (types.includes('boolean') && (text === 'true' || text === 'false')) return text === 'true';
  if (types.includes('null') && text === '') return null;
  return text;
}

function convertValue(value: unknown, schema: unknown): unknown {
  if (!isSchema(schema)) return value;
  const types = typesOf(schema);
  // a repeated key arrives as an array: only a schema that declares an array takes one
  if (types.includes('array')) {
    const items = Array.isArray(value) ? value : [value];
    return items.map((item) => (typeof item === 'string' ? convertText(item, isSchema(schema.items) ? schema.items : {}) : item));
  }
  return typeof value === 'string' ? convertText(value, schema) : value;
}

/** Converts the declared properties of a query/params/headers object in place. */
function convertProperties(data: unknown, schema: Schema): void {
  if (!isSchema(data) || !isSchema(schema.properties)) return;
  for (const [name, sub] of Object.entries(schema.properties)) {
    if (Object.hasOwn(data, name)) data[name] = convertValue(data[name], sub);
  }
}

/**
 * The first value no schema may accept — a number that is not finite (NaN, ±Infinity: JSON's 1e309)
 * or a string holding a NUL character (PostgreSQL cannot store one, and no form of ours sends it) —
 * as a validation issue, or null.
 */
export function firstUnacceptable(value: unknown, path = ''): FastifySchemaValidationError | null {
  if (typeof value === 'number') return Number.isFinite(value) ? null : issue('finite', path, 'must be a finite number');
  if (typeof value === 'string') return value.includes('\u0000') ? issue('nul', path, 'must not contain a NUL character') : null;
  if (typeof value !== 'object' || value === null) return null;
  for (const [key, item] of Array.isArray(value) ? value.entries() : Object.entries(value)) {
    const hit = firstUnacceptable(item, `${path}/${key}`);
    if (hit !== null) return hit;
  }
  return null;
}

function issue(keyword: string, instancePath: string, message: string): FastifySchemaValidationError {
  return { keyword, instancePath, schemaPath: '#', params: {}, message };
}

export class InputSchemaError extends Error {}

/**
 * Compiled validators by schema text. Ajv caches by object identity, and every route's schema is a
 * fresh copy (closeObjects), so each instance — a plugin's own instance, every panel a test starts —
 * compiled the same few hundred schemas again: most of the time Fastify's ready() took. A validator
 * keeps no state between calls but `errors`, read right after the call that set it.
 */
const validators = compiledBySchemaText<ValidateFunction>();

/**
 * The validator compiler of every route. It throws (the route fails to register) for a schema that
 * accepts an unbounded number.
 */
export const inputValidatorCompiler: FastifySchemaCompiler<unknown> = (definition) => {
  const part = (definition.httpPart ?? 'body') as HttpPart;
  const unbounded = unboundedNumbers(definition.schema);
  if (unbounded.length > 0) {
    throw new InputSchemaError(
      `${definition.method} ${definition.url}: ${part} ${unbounded.join(', ')} accept${unbounded.length === 1 ? 's' : ''} a number without both minimum and maximum (use boundedInteger from the sdk)`,
    );
  }
  const schema = closeObjects(definition.schema) as Schema;
  const validate = validators(JSON.stringify(schema), () => ajv.compile(schema));
  const converts = part !== 'body';
  const check = (data: unknown) => {
    if (converts) convertProperties(data, schema);
    if (!validate(data)) {
      check.errors = validate.errors as ErrorObject[] as FastifySchemaValidationError[];
      return false;
    }
    const unacceptable = firstUnacceptable(data);
    if (unacceptable !== null) {
      check.errors = [unacceptable];
      return false;
    }
    check.errors = null;
    return true;
  };
  check.errors = null as FastifySchemaValidationError[] | null;
  return check;
};

const NO_QUERY = { type: 'object', properties: {} } as const;
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** No body, or an empty one (`{}` or ''), is what a body-less request looks like; a JSON null is content. */
function hasContent(body: unknown): boolean {
  if (body === undefined) return false;
  if (body === null) return true;
  if (typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0) return false;
  return !(typeof body === 'string' && body.length === 0);
}

/** A route that declares no body takes none: anything sent is refused, never silently ignored. */
async function refuseBody(request: FastifyRequest): Promise<void> {
  if (hasContent(request.body)) throw httpError(400, 'VALIDATION_ERROR', 'This request takes no body.');
}

/** Only a route that declares `config.upload` takes a multipart form (ctx.files.fromRequest reads it). */
async function refuseMultipart(request: FastifyRequest): Promise<void> {
  if (isMultipart(request)) throw httpError(415, 'UNSUPPORTED_MEDIA_TYPE', 'This request does not take file uploads.');
}

/** An upload route without a body schema takes its form and nothing else: a JSON or text body is refused. */
async function requireMultipart(request: FastifyRequest): Promise<void> {
  if (!isMultipart(request) && hasContent(request.body)) throw httpError(415, 'UNSUPPORTED_MEDIA_TYPE', 'This request takes a multipart/form-data form.');
}

/**
 * A form's text fields as the body its route's schema checks: each declared property converted to
 * its type from its plain spelling, as a query string is ("3" → 3 for an integer).
 */
export function formFieldsAsBody(fields: Readonly<Record<string, string>>, bodySchema: unknown): Record<string, unknown> {
  const body: Record<string, unknown> = Object.fromEntries(Object.entries(fields));
  if (isSchema(bodySchema)) convertProperties(body, bodySchema);
  return body;
}

/** What reads an upload route's form (the file service): null when the request is no form. */
export interface UploadFormReader {
  readForm(request: FastifyRequest): Promise<UploadedForm> | null;
}

/** The form is read (its files checked and kept) before validation, and its fields become the body. */
function readUploadForm(files: UploadFormReader, bodySchema: unknown) {
  return async (request: FastifyRequest): Promise<void> => {
    const form = files.readForm(request);
    if (!form) return;
    const { fields } = await form;
    if (bodySchema !== undefined) request.body = formFieldsAsBody(fields, bodySchema);
  };
}

/**
 * Gives an API route the schemas it left out: no query string (an unknown parameter is refused)
 * and, for a method that may carry one, no body — and no multipart form unless the route declares
 * `config: { upload }` (then it takes the form; with a body schema, a JSON body or the form, whose
 * fields that schema checks). Runs from the root onRoute hook; `files` reads the forms.
 */
export function applyInputDefaults(route: RouteOptions, files?: UploadFormReader): void {
  if (!route.url.startsWith('/api/')) return;
  const schema = (route.schema ??= {});
  if (schema.querystring === undefined) schema.querystring = NO_QUERY;
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  const upload = route.config?.upload;
  // limits a function reads per request are checked at each request
  if (upload !== undefined && typeof upload !== 'function') checkUploadConfig(upload);
  if (!methods.some((m) => BODY_METHODS.has(m))) {
    if (upload !== undefined) throw new InputSchemaError(`${methods.join(',')} ${route.url}: an upload route needs a method that carries a body`);
    return;
  }
  const own = route.preValidation ? (Array.isArray(route.preValidation) ? route.preValidation : [route.preValidation]) : [];
  if (upload !== undefined) {
    const read = files ? [readUploadForm(files, schema.body)] : [];
    route.preValidation = schema.body === undefined ? [requireMultipart, ...read, ...own] : [...read, ...own];
  } else if (schema.body === undefined) route.preValidation = [refuseMultipart, refuseBody, ...own];
  else route.preValidation = [refuseMultipart, ...own];
}
