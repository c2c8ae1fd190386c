/**
 * Input validation before any upstream call. Every route declares its parameters as rules; anything
 * not declared is refused, and every value is checked for its form (ids, `YYYY-MM-DD`, `HH:mm`,
 * whole numbers, lengths, email). Values come out canonical (trimmed strings, real numbers), so the
 * upstream only ever sees what the proxy rebuilt, never the client's raw text.
 */
import { label, type FieldError } from '../core/envelope.js';
// The guest-field rules are shared with the widget (one rule set); the proxy's build bundles them.
import { isBirthDate, isCalendarDate, isEmail, isPhone, LIMITS, textProblem } from '../../src/api/rules.js';

/** The forms a parameter can take. */
export type Kind = 'id' | 'date' | 'time' | 'int' | 'duration' | 'bool' | 'text' | 'email' | 'phone' | 'ids' | 'choice';

/** How one parameter is checked. */
export interface Rule {
  kind: Kind;
  required?: boolean;
  /** Inclusive bounds for numbers; maximum length for text. */
  min?: number;
  max?: number;
  /** Text only: newlines allowed (notes). */
  multiline?: boolean;
  /** `choice`: the allowed values (a comma list of them is accepted when `list` is set). */
  choices?: readonly string[];
  list?: boolean;
  /** Dates only: must not be after today (date of birth). */
  past?: boolean;
}

/** A canonical value after validation. */
export type Value = string | number | boolean | string[];

/** Ids of the service are Mongo-style hex; the proxy (and its settings) accept a wider safe alphabet. */
export const ID_RE = /^[A-Za-z0-9_-]{1,64}$/;

/** Host names of this machine: a loopback upstream may use plain http, and any of them names it. */
export function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]';
}
const TIME_RE = /^([01]\d|2[0-3]):[0-5]\d$/;

/** True for a real calendar date in `YYYY-MM-DD` form (booking dates: from 2000). */
export function isDate(value: string): boolean {
  return isCalendarDate(value);
}

const problem = (name: string, code: string, message: string): FieldError => ({ code, message, fields: [name] });

/** A scalar as text: strings trimmed, finite numbers and booleans spelled out; else undefined. */
function scalar(raw: unknown): string | undefined {
  if (typeof raw === 'string') return raw.trim();
  if (typeof raw === 'number' && Number.isFinite(raw)) return String(raw);
  if (typeof raw === 'boolean') return String(raw);
  return undefined;
}

/** Records a field error; `undefined` so a check can `return reject(…)`. */
function reject(errors: FieldError[], name: string, message: string): undefined {
  errors.push(problem(name, `invalid_${name}`, message));
  return undefined;
}

/** Checks one present value; returns the canonical value or pushes an error. */
function check(name: string, raw: unknown, rule: Rule, errors: FieldError[]): Value | undefined {
  if (rule.kind === 'ids') {
    const items = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : null;
    if (
      !items ||
      items.length > (rule.max ?? 20) ||
      !items.every((item) => typeof item === 'string' && ID_RE.test(item.trim()))
    ) {
      return reject(errors, name, `${label(name)} must be a list of ids`);
    }
    return items.map((item) => (item as string).trim());
  }
  const text = scalar(raw);
  if (text === undefined) return reject(errors, name, `${label(name)} must be a single value`);
  switch (rule.kind) {
    case 'id':
      return ID_RE.test(text) ? text : reject(errors, name, `${label(name)} is not a valid id`);
    case 'date': {
      // The live service echoes dates as YYYY-MM-DDT00:00:00; the widget may send that back.
      const date = text.replace(/T00:00(:00)?$/, '');
      if (rule.past) {
        // A date of birth: from 1900, not after today.
        if (!isCalendarDate(date, 1900))
          return reject(errors, name, `${label(name)} must be a date in the form YYYY-MM-DD`);
        if (!isBirthDate(date, new Date().toISOString().slice(0, 10)))
          return reject(errors, name, `${label(name)} must be in the past`);
        return date;
      }
      if (!isDate(date)) return reject(errors, name, `${label(name)} must be a date in the form YYYY-MM-DD`);
      return date;
    }
    case 'time':
      return TIME_RE.test(text)
        ? text
        : reject(errors, name, `${label(name)} must be a 24-hour time in the form HH:mm`);
    case 'int': {
      const n = /^-?\d{1,7}$/.test(text) ? Number(text) : NaN;
      if (!Number.isSafeInteger(n) || n < (rule.min ?? 0) || n > (rule.max ?? 1000)) {
        return reject(
          errors,
          name,
          `${label(name)} must be a whole number from ${rule.min ?? 0} to ${rule.max ?? 1000}`,
        );
      }
      return n;
    }
    case 'duration': {
      // Minutes in practice, decimal hours in one spec table: any value a suggestion gave is sent back.
      const n = /^(-1|\d{1,4}(\.\d{1,2})?)$/.test(text) ? Number(text) : NaN;
      return Number.isFinite(n) && n <= 1440
        ? n
        : reject(
            errors,
            name,
            `${label(name)} must be a number as the booking service gave it (or -1 for until close)`,
          );
    }
    case 'bool':
      if (text === 'true' || text === '1') return true;
      if (text === 'false' || text === '0') return false;
      return reject(errors, name, `${label(name)} must be true or false`);
    case 'choice': {
      const items = rule.list ? text.split(',').map((item) => item.trim()) : [text];
      if (items.length === 0 || items.length > 20 || !items.every((item) => rule.choices!.includes(item))) {
        return reject(
          errors,
          name,
          `${label(name)} must be ${rule.list ? 'a comma list' : 'one'} of ${rule.choices!.join(', ')}`,
        );
      }
      return [...new Set(items)].join(',');
    }
    case 'email':
      return isEmail(text) ? text : reject(errors, name, `${label(name)} is not a valid email address`);
    case 'phone':
      return isPhone(text) ? text : reject(errors, name, `${label(name)} is not a valid phone number`);
    case 'text': {
      const max = rule.max ?? LIMITS.label;
      const trouble = textProblem(text, max, rule.multiline);
      if (trouble === 'long') return reject(errors, name, `${label(name)} is too long (at most ${max} characters)`);
      if (trouble) return reject(errors, name, `${label(name)} contains characters that are not allowed`);
      return text;
    }
  }
}

/** What `readFields` returns: canonical values and every problem found. */
export interface Read {
  values: Record<string, Value>;
  errors: FieldError[];
}

/** The names a rule set requires, found once per set (each is a module's constant). */
const requiredNames = new WeakMap<Record<string, Rule>, string[]>();

function requiredOf(rules: Record<string, Rule>): string[] {
  let names = requiredNames.get(rules);
  if (!names) {
    names = Object.keys(rules).filter((name) => rules[name]!.required);
    requiredNames.set(rules, names);
  }
  return names;
}

/**
 * Validates `input` against `rules`: unknown names are errors (or silently dropped when listed in
 * `drop`), missing required ones are errors, empty strings count as absent.
 */
export function readFields(
  input: Record<string, unknown>,
  rules: Record<string, Rule>,
  options: { drop?: string[] } = {},
): Read {
  const values: Record<string, Value> = {};
  const errors: FieldError[] = [];
  for (const name of Object.keys(input)) {
    if (options.drop?.includes(name)) continue;
    const rule = Object.prototype.hasOwnProperty.call(rules, name) ? rules[name] : undefined;
    if (!rule) {
      errors.push(problem(name.slice(0, 40), 'unknown_field', `${name.slice(0, 40)} is not accepted here`));
      continue;
    }
    const raw = input[name];
    if (raw === undefined || raw === null || raw === '') continue;
    const value = check(name, raw, rule, errors);
    if (value !== undefined) values[name] = value;
  }
  for (const name of requiredOf(rules)) {
    if (!(name in values) && !errors.some((error) => error.fields.includes(name))) {
      errors.push(problem(name, `missing_${name}`, `${label(name)} is required`));
    }
  }
  return { values, errors };
}

/**
 * Reads a query string into one value per name; a repeated name is an error (which of two values
 * a server honours is a classic smuggling trick).
 */
export function queryParams(search: string): { raw: Record<string, string>; errors: FieldError[] } {
  const raw: Record<string, string> = Object.create(null);
  const errors: FieldError[] = [];
  for (const [name, value] of new URLSearchParams(search)) {
    if (name in raw)
      errors.push(problem(name.slice(0, 40), 'repeated_parameter', `${name.slice(0, 40)} is given more than once`));
    raw[name] = value;
  }
  return { raw, errors };
}

/** Canonical query text of validated values: sorted names, so equal requests share a cache entry. */
export function canonicalQuery(values: Record<string, Value>): string {
  const search = new URLSearchParams();
  for (const name of Object.keys(values).sort()) {
    const value = values[name]!;
    search.set(name, Array.isArray(value) ? value.join(',') : String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}
