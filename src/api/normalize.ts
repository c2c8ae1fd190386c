/**
 * Tolerant reading of availability answers. The spec and the live service disagree on shapes
 * (see `shared/real-api-notes.md`): suggestions keyed `value`, `time` or `date`; types as objects;
 * dates echoed as `YYYY-MM-DDT00:00:00`; null messages; `action: reject` on every incomplete
 * request. Everything the widget reasons about passes through here once, so the rest of the code
 * sees one shape and never guards against the wire again.
 */
import type {
  AvailabilityAction,
  BookingField,
  WireAvailability,
  WireFieldError,
  WireFieldValidation,
  WireSuggestion,
  WireTypeValue,
} from './types.js';
import { BOOKING_FIELDS } from './types.js';

/** The guest's choices, in wire units (the duration is sent back exactly as it was suggested). */
export interface Choices {
  type?: string;
  date?: string;
  time?: string;
  duration?: number;
  num_people?: number;
}

/** A field error, reduced to what the widget shows. */
export interface FieldError {
  code: string;
  message: string | null;
}

/** One suggested value in internal form. */
export interface Suggestion {
  /** What is sent back: a type id, `yyyy-MM-dd`, `HH:mm`, or a number. */
  value: string | number;
  /** The service's own label (type name, duration text) or null to let the widget format it. */
  label: string | null;
  valid: boolean;
  message: string | null;
  action: AvailabilityAction | null;
  offers: string[];
  endTime: string | null;
}

/** One field's validation in internal form. */
export interface FieldState {
  /** Undefined when the service did not compute the field. */
  valid: boolean | undefined;
  errors: FieldError[];
  suggestions: Suggestion[];
  min: number | null;
  max: number | null;
}

/** An availability answer in internal form. */
export interface Availability {
  fields: Partial<Record<BookingField, FieldState>>;
  action: AvailabilityAction;
  depositRequired: boolean;
  preordersAvailable: boolean;
  /** bookingDetails as the service accepted them, dates stripped of any time part. */
  details: Record<string, unknown>;
  next: { api: string | null; web: string | null };
}

const ACTIONS: readonly AvailabilityAction[] = ['accept', 'enquire', 'may_enquire', 'reject'];

function asAction(value: unknown): AvailabilityAction | null {
  return ACTIONS.includes(value as AvailabilityAction) ? (value as AvailabilityAction) : null;
}

/** `2026-03-14T00:00:00` → `2026-03-14`; anything not date-like passes unchanged. */
export function plainDate(value: unknown): string {
  const text = String(value ?? '');
  const match = /^(\d{4}-\d{2}-\d{2})(?:[T ].*)?$/.exec(text);
  return match ? match[1] : text;
}

/** `9:05` → `09:05`; `19:30:00` → `19:30`. */
export function plainTime(value: unknown): string {
  const match = /^(\d{1,2}):(\d{2})/.exec(String(value ?? ''));
  return match ? `${match[1].padStart(2, '0')}:${match[2]}` : String(value ?? '');
}

function isTypeValue(value: unknown): value is WireTypeValue {
  return typeof value === 'object' && value !== null && 'id' in value;
}

function readSuggestion(field: BookingField, wire: WireSuggestion): Suggestion | null {
  let value: string | number | null = null;
  let label: string | null = wire.label ?? null;
  const raw = wire.value ?? (field === 'time' ? wire.time : field === 'date' ? wire.date : undefined);
  if (isTypeValue(raw)) {
    value = String(raw.id);
    label = label ?? raw.name ?? null;
  } else if (raw !== undefined && raw !== null && typeof raw !== 'object') {
    if (field === 'date') value = plainDate(raw);
    else if (field === 'time') value = plainTime(raw);
    else if (field === 'duration' || field === 'num_people') value = Number(raw);
    else value = String(raw);
  }
  if (value === null || (typeof value === 'number' && !Number.isFinite(value))) return null;
  const firstError = wire.errors?.find((error) => error?.message)?.message ?? null;
  return {
    value,
    label,
    valid: wire.valid !== false,
    message: wire.message ?? firstError,
    action: asAction(wire.action),
    offers: Array.isArray(wire.offers) ? wire.offers.map(String) : [],
    endTime: wire.endTime ? plainTime(wire.endTime) : null,
  };
}

function readErrors(errors: WireFieldError[] | null | undefined): FieldError[] {
  if (!Array.isArray(errors)) return [];
  return errors.map((error) => ({ code: String(error?.code ?? 'invalid'), message: error?.message ?? null }));
}

function readField(field: BookingField, wire: WireFieldValidation): FieldState {
  const suggestions = (Array.isArray(wire.suggestedValues) ? wire.suggestedValues : [])
    .map((item) => (item && typeof item === 'object' ? readSuggestion(field, item) : null))
    .filter((item): item is Suggestion => item !== null);
  const min = wire.rules?.min;
  const max = wire.rules?.max;
  return {
    valid: typeof wire.valid === 'boolean' ? wire.valid : undefined,
    errors: readErrors(wire.errors),
    suggestions,
    min: typeof min === 'number' ? min : null,
    max: typeof max === 'number' ? max : null,
  };
}

/** Reads an availability payload of either dialect into the internal form. */
export function normalizeAvailability(wire: WireAvailability | null | undefined): Availability {
  const fields: Availability['fields'] = {};
  for (const field of BOOKING_FIELDS) {
    const validation = wire?.validation?.[field];
    if (validation && typeof validation === 'object') fields[field] = readField(field, validation);
  }
  const details: Record<string, unknown> = { ...(wire?.bookingDetails ?? {}) };
  if (details.date !== undefined) details.date = plainDate(details.date);
  if (details.time !== undefined) details.time = plainTime(details.time);
  if (details.num_people !== undefined) details.num_people = Number(details.num_people);
  const next = wire?.next ?? null;
  return {
    fields,
    action: asAction(wire?.action) ?? 'reject',
    depositRequired: Boolean(wire?.depositRequired),
    preordersAvailable: wire?.preordersAvailable === true,
    details,
    next: {
      api: typeof next?.api === 'string' && next.api ? next.api : null,
      web: typeof next?.web === 'string' && next.web ? next.web : null,
    },
  };
}
