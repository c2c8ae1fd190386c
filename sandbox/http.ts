/**
 * The response envelope (§2.1), error bodies and request-parameter reading shared by every route.
 *
 * Error bodies are not shown by the spec; the sandbox always answers with the envelope and
 * `payload: { message, errors: [{ code, message, fields }] }` (the field-error shape the live
 * service was observed to use), so clients have one thing to parse.
 */

import { londonTimestamp } from './time.js';

/** One field error, as observed on the live service: `{ code, message, fields }`. */
export interface FieldError {
  code: string;
  message: string;
  fields: string[];
}

/** Parameters of a request: query and body merged, repeated keys as arrays. */
export type Params = Record<string, unknown>;

/** The envelope's `params`: the query string's parameters, `[]` without a query string (observed live). */
export type QueryEcho = Record<string, string | string[]> | [];

/** What a handler needs to build an envelope: when the request came and what it carried. */
export interface RequestInfo {
  /** The request's path (`/v4/...`), as the live service echoes it. */
  url: string;
  method: string;
  params: QueryEcho;
  requestTime: number;
  now: () => number;
}

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  303: 'See Other',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  501: 'Not Implemented',
  503: 'Service Unavailable',
};

/**
 * The envelope's echo of a query string, as the live service gives it: an object of strings (a
 * repeated name keeps its last value, `name[]` collects an array), and `[]` when there is no query
 * string, whatever the body carried.
 */
export function queryEcho(url: URL): QueryEcho {
  if (!url.search || url.search === '?') return [];
  const echo: Record<string, string | string[]> = Object.create(null);
  for (const [rawKey, value] of url.searchParams) {
    const isArray = rawKey.endsWith('[]');
    const key = isArray ? rawKey.slice(0, -2) : rawKey;
    if (key === '__proto__' || key === 'constructor' || key === 'prototype') continue;
    const existing = echo[key];
    echo[key] = isArray ? [...(Array.isArray(existing) ? existing : []), value] : value;
  }
  return { ...echo };
}

/** Builds an enveloped JSON response. */
export function envelope(info: RequestInfo, status: number, payload: unknown, headers?: HeadersInit): Response {
  const body = {
    payload,
    status,
    requestTime: londonTimestamp(info.requestTime),
    responseTime: londonTimestamp(info.now()),
    statusText: STATUS_TEXT[status] ?? 'Unknown',
    url: info.url,
    method: info.method,
    params: info.params,
  };
  const h = new Headers(headers);
  h.set('content-type', 'application/json; charset=utf-8');
  return new Response(JSON.stringify(body), { status, headers: h });
}

/** An error the routes throw; the app turns it into an enveloped error response. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors: FieldError[] = [],
    readonly headers?: HeadersInit,
  ) {
    super(message);
  }
}

/** Shorthand for a 400 with one field error. */
export function badField(field: string, code: string, message: string): ApiError {
  return new ApiError(400, message, [{ code, message, fields: [field] }]);
}

/** Throws a 400 listing every collected field error, when there are any. */
export function throwIfErrors(errors: FieldError[], message = 'The request is not valid'): void {
  if (errors.length) throw new ApiError(400, errors.length === 1 ? errors[0]!.message : message, errors);
}

/** The envelope of an ApiError. */
export function errorResponse(info: RequestInfo, err: ApiError): Response {
  return envelope(info, err.status, { message: err.message, errors: err.errors }, err.headers);
}

function addParam(params: Params, rawKey: string, value: unknown) {
  const isArray = rawKey.endsWith('[]');
  const key = isArray ? rawKey.slice(0, -2) : rawKey;
  if (key === '__proto__' || key === 'constructor' || key === 'prototype') return;
  const existing = Object.prototype.hasOwnProperty.call(params, key) ? params[key] : undefined;
  if (existing === undefined) params[key] = isArray ? [value] : value;
  else if (Array.isArray(existing)) existing.push(value);
  else params[key] = [existing, value];
}

/**
 * Reads query and body parameters. JSON bodies (object) and form bodies are merged over the query;
 * `key[]` and repeated keys become arrays. Malformed JSON is a 400, never a crash.
 */
export async function readParams(request: Request, url: URL): Promise<Params> {
  const params: Params = Object.create(null);
  for (const [k, v] of url.searchParams) addParam(params, k, v);
  if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'DELETE') return params;
  const type = (request.headers.get('content-type') ?? '').toLowerCase();
  const text = await request.text();
  if (text.length > 1_000_000) throw new ApiError(413, 'Request body too large');
  if (!text.trim()) return params;
  if (type.includes('application/x-www-form-urlencoded')) {
    for (const [k, v] of new URLSearchParams(text)) addParam(params, k, v);
    return params;
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ApiError(400, 'The request body is not valid JSON', [
      { code: 'invalid_json', message: 'The request body is not valid JSON', fields: [] },
    ]);
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiError(400, 'The request body must be a JSON object', [
      { code: 'invalid_body', message: 'The request body must be a JSON object', fields: [] },
    ]);
  }
  for (const [k, v] of Object.entries(body)) {
    if (k === '__proto__' || k === 'constructor' || k === 'prototype') continue;
    // A body value replaces a query value of the same name (the body is what the client meant).
    params[k.endsWith('[]') ? k.slice(0, -2) : k] = v;
  }
  return params;
}

/** The last value of a possibly repeated parameter (availability "can be posted repeatedly"). */
export function one(params: Params, key: string): unknown {
  const v = params[key];
  return Array.isArray(v) ? v[v.length - 1] : v;
}

/** A parameter as a trimmed string, or undefined when absent/empty/not scalar. */
export function str(params: Params, key: string): string | undefined {
  const v = one(params, key);
  if (typeof v === 'string') return v.trim() === '' ? undefined : v.trim();
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v === 'boolean') return String(v);
  return undefined;
}

/** Booleans as JSON booleans or the strings true/false/1/0 (the live service gets strings). */
export function bool(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === '1' || value === 'true' || value === 'yes' || value === 'on') return true;
  if (value === 0 || value === '0' || value === 'false' || value === 'no' || value === 'off') return false;
  return undefined;
}

/** A whole number from a number or numeric string, or undefined. */
export function int(value: unknown): number | undefined {
  const n =
    typeof value === 'number' ? value : typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(n) ? n : undefined;
}

/** A finite number from a number or numeric string, or undefined. */
export function num(value: unknown): number | undefined {
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)
        ? Number(value)
        : NaN;
  return Number.isFinite(n) ? n : undefined;
}

/** A list from an array or a comma-separated string; empty entries dropped. */
export function list(value: unknown): string[] {
  const items = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  return items
    .flatMap((v) => (typeof v === 'string' || typeof v === 'number' ? String(v).split(',') : []))
    .map((s) => s.trim())
    .filter(Boolean);
}

/** A plausible email address (one @, a dot in the domain, no spaces or markup). */
export const EMAIL_RE = /^[^\s@<>()",;]+@[^\s@<>()",;]+\.[^\s@<>()",;]+$/;

/** 24-character lowercase hex id. */
export const isHexId = (v: unknown): v is string => typeof v === 'string' && /^[0-9a-f]{24}$/.test(v);

/** Restricts an object to the named keys (the `fields=` projection). */
export function project<T extends object>(obj: T, fields: string[] | undefined): Partial<T> {
  if (!fields || !fields.length) return obj;
  const out: Record<string, unknown> = {};
  for (const f of fields)
    if (Object.prototype.hasOwnProperty.call(obj, f)) out[f] = (obj as Record<string, unknown>)[f];
  return out as Partial<T>;
}
