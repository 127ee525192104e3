/**
 * The platform vendor's published OpenAPI references (account management v2, agents v2, events
 * v1, alerts v1, in `vendor/`), and a check of one HTTP exchange against them: the path and method
 * exist, the query parameters are known, valid and not mutually exclusive, the request body is
 * valid, a success status is documented and its body valid.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { SPOKEN_INTERFACES } from '../../src/api/interfaces';

/** One problem of an exchange, as data: which operation, what kind, where, and what. */
export interface Violation {
  /** `METHOD /prefix/template` of the reference, or of the request when no operation matches. */
  operation: string;
  code:
    | 'unknown_operation'
    | 'unknown_parameter'
    | 'invalid_parameter'
    | 'exclusive_parameters'
    | 'missing_parameter'
    | 'invalid_request_body'
    | 'undocumented_status'
    | 'invalid_response_body';
  /** Where in the request or answer: `query.uuids`, `body.contact.email`, `response.items[0].tenant`. */
  path: string;
  message: string;
}

export interface ExchangeToCheck {
  method: string;
  path: string;
  query: URLSearchParams;
  requestBody: Buffer;
  contentType: string | undefined;
  status: number;
  responseBody: unknown;
}

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema?: Record<string, unknown>;
}

interface Operation {
  operationId?: string;
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
  'x-not-transcribed'?: boolean;
  'x-exclusive'?: string[][];
  'x-exclusive-with-all-but-limit'?: string[];
}

interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: Record<string, unknown>;
}

interface CompiledOperation {
  name: string;
  /** The reference's `operationId`. */
  operationId: string;
  method: string;
  regex: RegExp;
  pathNames: string[];
  operation: Operation;
  document: string;
}

/** Where each reference is served: its paths are relative to these prefixes. */
const REFERENCES = Object.values(SPOKEN_INTERFACES).map((i) => ({ file: i.reference, prefix: i.prefix }));

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch']);

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Ajv paths (`/items/0/tenant`) as users read them (`items[0].tenant`). */
function memberPath(root: string, instancePath: string, error: ErrorObject): string {
  let path = root;
  for (const part of instancePath.split('/').slice(1)) path += /^\d+$/.test(part) ? `[${part}]` : `.${part.replace(/~1/g, '/').replace(/~0/g, '~')}`;
  if (error.keyword === 'required') path += `.${(error.params as { missingProperty: string }).missingProperty}`;
  if (error.keyword === 'additionalProperties') path += `.${(error.params as { additionalProperty: string }).additionalProperty}`;
  return path;
}

export class Contract {
  readonly #ajv: Ajv;
  readonly #operations: CompiledOperation[] = [];
  readonly #validators = new Map<unknown, ValidateFunction>();

  constructor(dir = join(__dirname, 'vendor')) {
    // The references carry OpenAPI 3.0's `nullable` (which Ajv knows), their own `x-` notes, and
    // patterns written for non-Unicode regular expressions (`\:`).
    this.#ajv = new Ajv({ allErrors: true, strictSchema: false, strictTypes: false, unicodeRegExp: false });
    this.#ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 });
    this.#ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
    this.#ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i);
    for (const ref of REFERENCES) {
      const document = JSON.parse(readFileSync(join(dir, ref.file), 'utf8')) as Document;
      this.#ajv.addSchema({ $id: ref.file, components: toJsonSchema(document.components, ref.file) });
      for (const [template, methods] of Object.entries(document.paths)) {
        const pathNames: string[] = [];
        const source = template
          .split('/')
          .map((segment) => {
            const m = /^\{(.+)\}$/.exec(segment);
            if (m === null) return escapeRegex(segment);
            pathNames.push(m[1]);
            return '([^/]+)';
          })
          .join('/');
        for (const [method, operation] of Object.entries(methods)) {
          if (!METHODS.has(method)) continue;
          this.#operations.push({
            name: `${method.toUpperCase()} ${ref.prefix}${template}`,
            operationId: operation.operationId ?? '',
            method: method.toUpperCase(),
            regex: new RegExp(`^${escapeRegex(ref.prefix)}${source}/?$`),
            pathNames,
            operation,
            document: ref.file,
          });
        }
      }
    }
    // A literal segment wins over a parameter (`/users/check_login` over `/users/{user_id}`).
    this.#operations.sort((a, b) => a.pathNames.length - b.pathNames.length);
  }

  /** The reference operation that serves a request, by method and path. */
  operationOf(method: string, path: string): { compiled: CompiledOperation; pathParams: Record<string, string> } | undefined {
    for (const compiled of this.#operations) {
      if (compiled.method !== method) continue;
      const m = compiled.regex.exec(path);
      if (m === null) continue;
      const pathParams: Record<string, string> = {};
      compiled.pathNames.forEach((name, i) => (pathParams[name] = decodeURIComponent(m[i + 1])));
      return { compiled, pathParams };
    }
    return undefined;
  }

  #validator(document: string, schema: unknown): ValidateFunction {
    let validate = this.#validators.get(schema);
    if (validate === undefined) {
      // Local `$ref`s of the reference resolve against its components.
      validate = this.#ajv.compile(toJsonSchema(schema, document));
      this.#validators.set(schema, validate);
    }
    return validate;
  }

  #schemaProblems(document: string, schema: unknown, value: unknown, root: string, operation: string, code: Violation['code']): Violation[] {
    const validate = this.#validator(document, schema);
    if (validate(value)) return [];
    return (validate.errors ?? []).map((error) => ({
      operation,
      code,
      path: memberPath(root, error.instancePath, error),
      message: error.message ?? error.keyword,
    }));
  }

  /** Problems of the request alone. */
  checkRequest(exchange: Omit<ExchangeToCheck, 'status' | 'responseBody'>): Violation[] {
    const found = this.operationOf(exchange.method, exchange.path);
    if (found === undefined)
      return [{ operation: `${exchange.method} ${exchange.path}`, code: 'unknown_operation', path: '', message: 'the reference has no such path and method' }];
    const { compiled, pathParams } = found;
    const { operation, document, name } = compiled;
    if (operation['x-not-transcribed'] === true) return [];
    const problems: Violation[] = [];
    const parameters = operation.parameters ?? [];
    for (const p of parameters) {
      if (p.in === 'path') problems.push(...this.#parameterProblems(document, p, [pathParams[p.name] ?? ''], name));
    }
    const queryNames = new Set<string>();
    for (const key of exchange.query.keys()) queryNames.add(key);
    for (const key of queryNames) {
      const p = parameters.find((q) => q.in === 'query' && q.name === key);
      if (p === undefined)
        problems.push({ operation: name, code: 'unknown_parameter', path: `query.${key}`, message: 'the reference has no such query parameter' });
      else problems.push(...this.#parameterProblems(document, p, exchange.query.getAll(key), name));
    }
    for (const p of parameters) {
      if (p.in === 'query' && p.required === true && !queryNames.has(p.name))
        problems.push({ operation: name, code: 'missing_parameter', path: `query.${p.name}`, message: 'required query parameter is missing' });
    }
    for (const group of operation['x-exclusive'] ?? []) {
      const present = group.filter((n) => queryNames.has(n));
      if (present.length > 1)
        problems.push({
          operation: name,
          code: 'exclusive_parameters',
          path: `query.${present.join('+')}`,
          message: `${present.join(' and ')} must not be given together`,
        });
    }
    for (const cursor of operation['x-exclusive-with-all-but-limit'] ?? []) {
      if (!queryNames.has(cursor)) continue;
      const others = [...queryNames].filter((n) => n !== cursor && n !== 'limit');
      if (others.length > 0)
        problems.push({
          operation: name,
          code: 'exclusive_parameters',
          path: `query.${cursor}`,
          message: `${cursor} takes no other parameter than limit (got ${others.join(', ')})`,
        });
    }
    const bodySchema = operation.requestBody?.content?.['application/json']?.schema;
    if (bodySchema !== undefined && exchange.requestBody.length > 0 && (exchange.contentType ?? '').includes('json')) {
      let body: unknown;
      try {
        body = JSON.parse(exchange.requestBody.toString('utf8'));
      } catch {
        return [...problems, { operation: name, code: 'invalid_request_body', path: 'body', message: 'not JSON' }];
      }
      problems.push(...this.#schemaProblems(document, bodySchema, body, 'body', name, 'invalid_request_body'));
    }
    return problems;
  }

  #parameterProblems(document: string, p: Parameter, values: string[], operation: string): Violation[] {
    const schema = (p.schema ?? {}) as { type?: string; items?: { type?: string } };
    let value: unknown;
    if (schema.type === 'array') {
      // Form style: repeated parameters, or one comma-separated value as the platform's own clients send.
      value = values.flatMap((v) => v.split(',')).map((v) => coerce(v, schema.items?.type));
    } else {
      if (values.length > 1) return [{ operation, code: 'invalid_parameter', path: `${p.in}.${p.name}`, message: 'given more than once' }];
      value = coerce(values[0], schema.type);
    }
    return this.#schemaProblems(document, schema, value, `${p.in}.${p.name}`, operation, 'invalid_parameter');
  }

  /** Problems of the answer, given a request the reference knows. */
  checkResponse(exchange: ExchangeToCheck): Violation[] {
    const found = this.operationOf(exchange.method, exchange.path);
    if (found === undefined) return [];
    const { operation, document, name } = found.compiled;
    if (operation['x-not-transcribed'] === true) return [];
    const response = operation.responses[String(exchange.status)] ?? operation.responses[`${String(exchange.status)[0]}XX`] ?? operation.responses.default;
    if (response === undefined) {
      const documented = Object.keys(operation.responses).join(', ');
      return [
        { operation: name, code: 'undocumented_status', path: 'status', message: `${exchange.status} is not among the documented statuses (${documented})` },
      ];
    }
    const schema = response.content?.['application/json']?.schema;
    if (schema === undefined) {
      // A documented plain-text answer (the alert manager's 401 page) is a string body.
      const text = response.content?.['text/plain'] !== undefined && typeof exchange.responseBody === 'string';
      if (exchange.responseBody !== undefined && exchange.status !== 204 && !text)
        return [{ operation: name, code: 'invalid_response_body', path: 'response', message: 'the reference documents no body for this status' }];
      return [];
    }
    return this.#schemaProblems(document, schema, exchange.responseBody, 'response', name, 'invalid_response_body');
  }

  check(exchange: ExchangeToCheck): Violation[] {
    const request = this.checkRequest(exchange);
    return request.length > 0 ? request : this.checkResponse(exchange);
  }
}

/**
 * An OpenAPI 3.0 schema as JSON Schema: local `$ref`s (`#/components/...`) point at its reference
 * document, and `nullable` (which Ajv takes only beside a `type`) becomes a choice with `null`.
 */
function toJsonSchema(schema: unknown, document: string): Record<string, unknown> {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) {
      if (k === 'nullable') continue;
      out[k] = k === '$ref' && typeof v === 'string' && v.startsWith('#') ? `${document}${v}` : walk(v);
    }
    if ((node as { nullable?: unknown }).nullable !== true) return out;
    if (typeof out.type === 'string' && out.$ref === undefined) {
      out.type = [out.type, 'null'];
      if (Array.isArray(out.enum)) out.enum = [...out.enum, null];
      return out;
    }
    return { anyOf: [{ type: 'null' }, out] };
  };
  return walk(schema) as Record<string, unknown>;
}

function coerce(text: string, type: string | undefined): unknown {
  if (type === 'integer' || type === 'number') return text.trim() !== '' && !Number.isNaN(Number(text)) ? Number(text) : text;
  if (type === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  return text;
}
