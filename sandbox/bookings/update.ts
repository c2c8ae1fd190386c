/**
 * Update (§4.3) and assigned areas (§4.4): the changes to a stored booking. An update body is read
 * through a rule table of every updatable field (the status moves the sandbox allows among them)
 * into a patch, every problem reported at once as field errors of one 400, so a bad request
 * changes nothing.
 */

import { durationMinutes } from '../availability/index.js';
import {
  ApiError,
  bool,
  EMAIL_RE,
  int,
  isHexId,
  list,
  str,
  throwIfErrors,
  type FieldError,
  type Params,
} from '../http.js';
import type { Kind } from '../schema.js';
import type { Store } from '../store.js';
import { londonDate, parseInstant, parseTime } from '../time.js';
import type { Booking, BookingStatus } from '../types.js';
import { PHONE_RE, plainDate, text } from './fields.js';

/** Status moves the sandbox allows (the spec shows only "any → in_progress"; the rest is documented in SEED.md). */
export const TRANSITIONS: Record<BookingStatus, BookingStatus[]> = {
  new: ['in_progress', 'complete', 'rejected', 'deleted'],
  in_progress: ['new', 'complete', 'rejected', 'deleted'],
  complete: ['in_progress', 'rejected', 'deleted', 'lost'],
  rejected: ['new', 'in_progress', 'deleted'],
  lost: ['in_progress', 'complete', 'deleted'],
  deleted: ['in_progress'],
};

/** The statuses that take a booking out of the venue's list: a cancel or refusal, a deletion, a no-show. */
const OUT_OF_LIST: ReadonlySet<unknown> = new Set<BookingStatus>(['rejected', 'deleted', 'lost']);

/**
 * What a status move needs of the key (SEED.md, "Apps and capabilities"): taking a booking out of
 * the venue's list or back (a guest's cancel is a move to `rejected`) is managing the venue's
 * bookings (`manage_*`); moves among new, in_progress and complete are confirming (`confirm_*`),
 * as is a status sent as it already is (a repeated cancel changes nothing).
 */
export function statusPermission(from: BookingStatus, to: unknown): 'update_bookings' | 'manage_bookings' {
  return to !== undefined && to !== from && (OUT_OF_LIST.has(from) || OUT_OF_LIST.has(to))
    ? 'manage_bookings'
    : 'update_bookings';
}

/** A booking update being read: the booking, the errors so far and the patch built. */
interface UpdateDraft {
  store: Store;
  booking: Booking;
  nowMs: number;
  actor: string;
  params: Params;
  errors: FieldError[];
  patch: Partial<Booking>;
}

/** Reads one present field of an update into the patch, or records why it cannot be applied. */
type UpdateRule = (d: UpdateDraft, raw: unknown) => void;

/** Records an error on one field of the update being read. */
const updateError = (d: UpdateDraft, field: string, code: string, message: string) =>
  d.errors.push({ code, message, fields: [field] });

/** A status move: allowed by {@link TRANSITIONS}, `lost` only once the date has passed. */
const statusRule: UpdateRule = (d, raw) => {
  const s = raw as BookingStatus;
  const b = d.booking;
  if (typeof s !== 'string' || !(s in TRANSITIONS))
    return updateError(d, 'status', 'invalid_status', `Status must be one of ${Object.keys(TRANSITIONS).join(', ')}`);
  if (s === b.status) return;
  if (!TRANSITIONS[b.status].includes(s))
    return updateError(d, 'status', 'invalid_transition', `A ${b.status} booking cannot become ${s}`);
  if (s === 'lost' && b.date >= londonDate(d.nowMs))
    return updateError(d, 'status', 'invalid_transition', 'Only a booking whose date has passed can be lost');
  d.patch.status = s;
  d.patch.status_changed_date = d.nowMs;
  if (s === 'complete') {
    d.patch.completed_by = d.actor;
    d.patch.completed_date = d.nowMs;
  }
};

/** First and last name: required when sent (a name cannot be cleared). */
const namesRule =
  (key: 'first_name' | 'last_name'): UpdateRule =>
  (d) => {
    const v = text(d.params, key, d.errors, { required: true, max: 100 });
    if (v) d.patch[key] = v;
  };

/** Contact and free-text fields: null clears them; email and phone must look right. */
const contactRule =
  (key: 'email' | 'phone' | 'notes' | 'partner_source'): UpdateRule =>
  (d, raw) => {
    const v = raw === null ? null : text(d.params, key, d.errors, { max: key === 'notes' ? 2000 : 254 });
    if (key === 'email' && v && !EMAIL_RE.test(v))
      updateError(d, 'email', 'invalid_email', 'Email is not a valid address');
    else if (key === 'phone' && v && !PHONE_RE.test(v))
      updateError(d, 'phone', 'invalid_phone', 'Phone is not a valid number');
    else d.patch[key] = v;
  };

/** The yes/no flags of a booking: true or false only. */
const flagRule =
  (key: 'managed_by_venue' | 'invoiced' | 'reconciled' | 'walk_in'): UpdateRule =>
  (d, raw) => {
    const v = bool(raw);
    if (v === undefined) updateError(d, key, `invalid_${key}`, `${key} must be true or false`);
    else d.patch[key] = v;
  };

/**
 * The rule table of a booking update (§4.3; fields beyond `status` are not shown by the spec, see
 * SEED.md): every updatable field and how it is read, in the order errors are reported.
 */
export const UPDATE_RULES: Record<string, { kind: Kind; doc: string; choices?: readonly string[]; apply: UpdateRule }> =
  {
    status: {
      kind: 'choice',
      choices: Object.keys(TRANSITIONS),
      doc: 'New status; the moves SEED.md lists (lost only once the date has passed)',
      apply: statusRule,
    },
    num_people: {
      kind: 'int',
      doc: 'Number of guests, 1 to 1000',
      apply: (d, raw) => {
        const n = int(raw);
        if (n === undefined || n < 1 || n > 1000)
          updateError(d, 'num_people', 'invalid_num_people', 'Number of people must be a whole number from 1 to 1000');
        else d.patch.num_people = n;
      },
    },
    date: {
      kind: 'date',
      doc: 'YYYY-MM-DD',
      apply: (d, raw) => {
        const date = plainDate(raw);
        if (!date) updateError(d, 'date', 'invalid_date', 'Date must be a real date in the form YYYY-MM-DD');
        else d.patch.date = date;
      },
    },
    time: {
      kind: 'time',
      doc: '24-hour HH:mm',
      apply: (d, raw) => {
        if (parseTime(raw) === null) updateError(d, 'time', 'invalid_time', 'Time must be HH:mm');
        else d.patch.time = raw as string;
      },
    },
    duration: {
      kind: 'duration',
      doc: 'Minutes; -1 until close',
      apply: (d, raw) => {
        const minutes = durationMinutes(raw);
        if (minutes === undefined || minutes > 1440)
          updateError(d, 'duration', 'invalid_duration', 'Duration must be minutes (or -1 for until close)');
        else d.patch.duration = minutes;
      },
    },
    first_name: { kind: 'text', doc: 'Guest first name', apply: namesRule('first_name') },
    last_name: { kind: 'text', doc: 'Guest last name', apply: namesRule('last_name') },
    email: { kind: 'text', doc: 'Guest email (null clears it)', apply: contactRule('email') },
    phone: { kind: 'text', doc: 'Guest phone (null clears it)', apply: contactRule('phone') },
    notes: { kind: 'text', doc: 'Guest requests (null clears them)', apply: contactRule('notes') },
    partner_source: { kind: 'text', doc: 'Free-text label for reporting', apply: contactRule('partner_source') },
    labels: {
      kind: 'ids',
      doc: 'Booking label ids of the venue or its group (replaces the labels)',
      apply: (d, raw) => {
        const ids = list(raw);
        const venue = d.store.venues.get(d.booking.venue_id);
        const known = new Set(
          [...(d.store.groups.get(d.booking.venue_group)?.booking_labels ?? []), ...(venue?.booking_labels ?? [])].map(
            (l) => l.id,
          ),
        );
        const bad = ids.filter((i) => !known.has(i));
        if (bad.length || (!Array.isArray(raw) && typeof raw !== 'string'))
          updateError(d, 'labels', 'invalid_labels', `Unknown labels: ${bad.join(', ')}`);
        else d.patch.labels = [...new Set(ids)];
      },
    },
    follow_up: {
      kind: 'datetime',
      doc: 'Follow-up date or date-time (null clears it)',
      apply: (d, raw) => {
        const v = raw === null ? null : typeof raw === 'string' ? parseInstant(raw) : null;
        if (raw !== null && v === null)
          updateError(d, 'follow_up', 'invalid_follow_up', 'follow_up must be a date or date-time');
        else d.patch.follow_up = v;
      },
    },
    assigned_to: {
      kind: 'hexId',
      doc: 'Id of a user of the venue group (null unassigns)',
      apply: (d, raw) => {
        if (raw !== null && !(isHexId(raw) && d.store.groupUsers.get(raw)?.venue_group === d.booking.venue_group))
          updateError(
            d,
            'assigned_to',
            'invalid_assigned_to',
            'assigned_to must be the id of a user of this venue group',
          );
        else d.patch.assigned_to = raw as string | null;
      },
    },
    managed_by_venue: { kind: 'bool', doc: 'Managed by the venue', apply: flagRule('managed_by_venue') },
    invoiced: { kind: 'bool', doc: 'Invoiced', apply: flagRule('invoiced') },
    reconciled: { kind: 'bool', doc: 'Reconciled', apply: flagRule('reconciled') },
    walk_in: { kind: 'bool', doc: 'A walk-in', apply: flagRule('walk_in') },
    value: {
      kind: 'number',
      doc: 'Value of the booking, 0 or more',
      apply: (d, raw) => {
        const v = typeof raw === 'number' ? raw : Number(str(d.params, 'value'));
        if (!Number.isFinite(v) || v < 0)
          updateError(d, 'value', 'invalid_value', 'value must be a number of 0 or more');
        else d.patch.value = v;
      },
    },
  };

/** The fields an update accepts. */
const UPDATABLE = Object.keys(UPDATE_RULES);

/** Validates an update body into a patch through {@link UPDATE_RULES}; throws one 400 with every field error. */
export function parseUpdate(store: Store, b: Booking, params: Params, nowMs: number, actor: string): Partial<Booking> {
  const d: UpdateDraft = { store, booking: b, nowMs, actor, params, errors: [], patch: {} };
  const unknown = Object.keys(params).filter((k) => !UPDATABLE.includes(k));
  if (unknown.length) {
    d.errors.push({
      code: 'unknown_field',
      message: `These fields cannot be updated: ${unknown.join(', ')}. Updatable: ${UPDATABLE.join(', ')}`,
      fields: unknown,
    });
  }
  for (const [key, rule] of Object.entries(UPDATE_RULES)) if (params[key] !== undefined) rule.apply(d, params[key]);
  throwIfErrors(d.errors);
  if (Object.keys(d.patch).length) d.patch.last_updated = nowMs;
  return d.patch;
}

/** Replaces assigned areas (§4.4) after checking every id belongs to the venue. */
export function parseAreas(store: Store, b: Booking, params: Params) {
  const venue = store.venues.get(b.venue_id);
  if (!Array.isArray(params.areas))
    throw new ApiError(400, 'areas must be an array of area ids', [
      { code: 'invalid_areas', message: 'areas must be an array of area ids', fields: ['areas'] },
    ]);
  const ids = [...new Set(params.areas.map((a) => (typeof a === 'string' ? a : '')))];
  const found = ids.map((id) => venue?.bookable_areas.find((a) => a.id === id));
  const bad = ids.filter((_, i) => !found[i]);
  if (bad.length)
    throw new ApiError(400, `Unknown areas for this venue: ${bad.join(', ') || '(empty)'}`, [
      { code: 'invalid_areas', message: 'Unknown area ids', fields: ['areas'] },
    ]);
  return found.map((a) => ({ id: a!.id, name: a!.name, zone: a!.zone }));
}
