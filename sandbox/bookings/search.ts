/**
 * Booking search (§4.6, deprecated but working): every filter, the range grammar, every sort,
 * `fields` projection and paging, over the store's linear list.
 *
 * Speed: each filter compiles once into a predicate over plain strings and numbers (no Date objects
 * per booking), and when only a page is wanted from many matches a bounded top-k selection replaces
 * a full sort, which keeps 100,000 bookings well under the 50 ms goal.
 */

import type { Access } from '../auth.js';
import { ApiError, bool, int, isHexId, list, str, throwIfErrors, type FieldError, type Params } from '../http.js';
import type { Kind, ParamTable } from '../schema.js';
import type { Store } from '../store.js';
import { isDate, londonDate, londonInstant, parseTime, addDays } from '../time.js';
import type { Booking, BookingStatus } from '../types.js';
import { searchExtra, searchRecord } from './records.js';

/** The status filter values of §4.6 and what each selects. */
export const STATUS_FILTERS: Record<string, BookingStatus[]> = {
  new: ['new'],
  in_progress: ['in_progress'],
  complete: ['complete'],
  rejected: ['rejected'],
  deleted: ['deleted'],
  lost: ['lost'],
  all: ['new', 'in_progress', 'complete'],
  include_rejected: ['new', 'in_progress', 'complete', 'rejected'],
};

/** The sorts of §4.6. */
export const SORTS = [
  'date_asc',
  'date_desc',
  'created_date_asc',
  'created_date_desc',
  'status_changed_date',
  'date_desc,time_desc',
] as const;

/** Per-notification meaning on sandbox data (documented in SEED.md). */
export const NOTIFICATIONS: Record<string, (b: Booking, now: number, today: string) => boolean> = {
  follow_up: (b, _n, today) => b.follow_up !== null && b.follow_up < (londonInstant(addDays(today, 1), 0) ?? 0),
  for_today: (b, _n, today) => b.date === today && (b.status === 'new' || b.status === 'in_progress'),
  untaken_two_hours: (b, now) => b.status === 'new' && !b.assigned_to && b.created_date < now - 2 * 3_600_000,
  messages: (b) => !!b.flags.unread_messages,
  customer_notes: (b) => b.status === 'complete' && !!b.flags.customer_notes_unread,
  packages_requested: (b) => !!b.flags.packages_requested && !b.deposits.some((d) => d.status === 'paid'),
  deposit_authenticated: (b) => !!b.flags.deposit_authenticated || b.deposits.some((d) => d.status === 'authenticated'),
  deposit_paid: (b) => !!b.flags.deposit_paid || b.deposits.some((d) => d.status === 'paid'),
  customer_preorder_added: (b) => !!b.flags.customer_preorder_added || b.preorders.some((p) => p.source === 'customer'),
  customer_preorder_complete: (b) =>
    !!b.flags.customer_preorder_complete || b.preorders.some((p) => p.source === 'customer' && p.status === 'complete'),
  email_delivery_failed: (b) => !!b.flags.email_delivery_failed,
  customer_change: (b) => !!b.flags.customer_change,
  customer_cancelled: (b) => !!b.flags.customer_cancelled && b.status === 'rejected',
};

/** An inclusive range; undefined bound = open (`*`). */
export interface Range<T> {
  lo?: T;
  hi?: T;
}

/**
 * Parses the range grammar: `A TO B`, `*` for an open end, or a single value (exact). `parse`
 * turns one bound into a comparable value, or null when malformed.
 */
export function parseRange<T>(
  raw: string,
  parse: (v: string, end: 'lo' | 'hi', single: boolean) => T | null,
): Range<T> | null {
  const parts = raw.trim().split(/\s+TO\s+/i);
  if (parts.length === 1) {
    if (parts[0] === '*') return {};
    const lo = parse(parts[0]!, 'lo', true);
    const hi = parse(parts[0]!, 'hi', true);
    return lo === null || hi === null ? null : { lo, hi };
  }
  if (parts.length !== 2) return null;
  const out: Range<T> = {};
  for (const [i, end] of [
    [0, 'lo'],
    [1, 'hi'],
  ] as const) {
    const v = parts[i]!.trim();
    if (v === '*') continue;
    const parsed = parse(v, end, false);
    if (parsed === null) return null;
    out[end] = parsed;
  }
  return out;
}

const TS_RE = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2}))?)?$/;

/**
 * A date-range bound as UTC epoch ms (§2.5 timestamps are UTC). A bound without time is midnight;
 * a single date (`exact`) is that whole day.
 */
function instantBound(v: string, end: 'lo' | 'hi', single: boolean): number | null {
  const m = TS_RE.exec(v);
  if (!m || !isDate(m[1])) return null;
  const [h, mi, s] = [Number(m[2] ?? 0), Number(m[3] ?? 0), Number(m[4] ?? 0)];
  if (h > 23 || mi > 59 || s > 59) return null;
  const base = Date.parse(`${m[1]}T00:00:00Z`) + ((h * 60 + mi) * 60 + s) * 1000;
  return end === 'hi' && single && m[2] === undefined ? base + 86_399_999 : base;
}

const dateRange = (raw: string) => parseRange(raw, instantBound);

/** A search request being compiled: its parameters, the errors so far and the predicates built. */
interface SearchDraft {
  store: Store;
  params: Params;
  nowMs: number;
  today: string;
  errors: FieldError[];
  preds: ((b: Booking) => boolean)[];
  /** The statuses the `status` filter selects (the notifications filter reads them). */
  statuses: Set<BookingStatus>;
}

/** Compiles one present filter into a predicate, or records why it is malformed. */
type FilterRule = (d: SearchDraft, key: string) => void;

const bad = (d: SearchDraft, field: string, message: string) =>
  d.errors.push({ code: `invalid_${field}`, message, fields: [field] });

/** A filter's value as one trimmed string ('' when absent or not scalar). */
const text = (d: SearchDraft, key: string) => str(d.params, key) ?? '';

/** `type`, `assigned_to`: one or more comma-separated hex ids. */
const hexListFilter: FilterRule = (d, key) => {
  const ids = list(d.params[key]);
  if (!ids.length || ids.some((i) => !isHexId(i)))
    return bad(d, key, `${key} must be one or more comma-separated hex ids`);
  const set = new Set(ids);
  d.preds.push(key === 'type' ? (b) => set.has(b.type) : (b) => b.assigned_to !== null && set.has(b.assigned_to));
};

/** `has_preorders`, `private_hire`: true or false. */
const booleanFilter: FilterRule = (d, key) => {
  const v = bool(str(d.params, key));
  if (v === undefined) return bad(d, key, `${key} must be true or false`);
  if (key === 'has_preorders') return void d.preds.push((b) => b.preorders.length > 0 === v);
  const privateHire = new Set(
    [...d.store.venues.values()].flatMap((ve) => ve.booking_types.filter((t) => t.private_hire).map((t) => t.id)),
  );
  d.preds.push((b) => privateHire.has(b.type) === v);
};

/** `date`: booking dates are midnights, compared as strings against the first and last whole dates in range. */
const bookingDateFilter: FilterRule = (d) => {
  const r = dateRange(text(d, 'date'));
  if (!r) return bad(d, 'date', 'date must be a date range: <from> TO <to>, * for an open end, or one date');
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const lo = r.lo === undefined ? undefined : r.lo % 86_400_000 === 0 ? day(r.lo) : day(r.lo + 86_400_000);
  const hi = r.hi === undefined ? undefined : day(r.hi);
  d.preds.push((b) => (lo === undefined || b.date >= lo) && (hi === undefined || b.date <= hi));
};

/** `created_date`, `last_updated`, `follow_up`: UTC instants in a date range. */
const instantFilter: FilterRule = (d, key) => {
  const r = dateRange(text(d, key));
  if (!r) return bad(d, key, `${key} must be a date range: <from> TO <to>, * for an open end, or one date`);
  const { lo, hi } = r;
  const field = key as 'created_date' | 'last_updated' | 'follow_up';
  d.preds.push((b) => {
    const v = b[field];
    return v !== null && (lo === undefined || v >= lo) && (hi === undefined || v <= hi);
  });
};

/** `start_time` (starts in the range) and `time` (running at some moment of it: start ≤ hi and end > lo). */
const timeRangeFilter: FilterRule = (d, key) => {
  const r = parseRange(text(d, key), (v) => parseTime(v));
  if (!r) return bad(d, key, `${key} must be a time range such as 12:00 TO 17:00 or * TO 10:00`);
  const lo = r.lo ?? 0,
    hi = r.hi ?? 1439;
  const startOf = (b: Booking) => parseTime(b.time) ?? -1;
  if (key === 'start_time') return void d.preds.push((b) => startOf(b) >= lo && startOf(b) <= hi);
  d.preds.push((b) => {
    const t = startOf(b);
    const end = b.duration > 0 ? t + b.duration : 1440;
    return t <= hi && end > lo;
  });
};

/** The filter table of §4.6: each filter present in the request compiles into a predicate, in this order. */
const FILTERS: Record<string, { kind: Kind; doc: string; choices?: readonly string[]; compile: FilterRule }> = {
  type: { kind: 'ids', doc: 'Booking type ids, comma separated', compile: hexListFilter },
  assigned_to: {
    kind: 'ids',
    doc: 'Ids of the users bookings are assigned to, comma separated',
    compile: hexListFilter,
  },
  booking_id: {
    kind: 'int',
    doc: 'Booking reference number',
    compile: (d) => {
      const n = int(str(d.params, 'booking_id'));
      if (n === undefined || n < 0) bad(d, 'booking_id', 'booking_id must be a number');
      else d.preds.push((b) => b.booking_id === n);
    },
  },
  email: {
    kind: 'text',
    doc: 'Full email address of the customer',
    compile: (d) => {
      const e = str(d.params, 'email')?.toLowerCase();
      if (!e || !e.includes('@')) bad(d, 'email', 'email must be a full email address');
      else d.preds.push((b) => b.email !== null && b.email.toLowerCase() === e);
    },
  },
  phone: {
    kind: 'text',
    doc: 'Phone number of the customer',
    compile: (d) => {
      const p = text(d, 'phone').replace(/[^\d+]/g, '');
      if (p.length < 4) bad(d, 'phone', 'phone must be a phone number');
      else d.preds.push((b) => b.phone !== null && b.phone.replace(/[^\d+]/g, '') === p);
    },
  },
  query: {
    kind: 'text',
    doc: 'Free text over customer name, email and company',
    compile: (d) => {
      const words = text(d, 'query').toLowerCase().split(/\s+/).filter(Boolean);
      if (!words.length) return bad(d, 'query', 'query must not be empty');
      d.preds.push((b) => {
        const hay = `${b.first_name} ${b.last_name} ${b.email ?? ''} ${b.company ?? ''}`.toLowerCase();
        return words.every((w) => hay.includes(w));
      });
    },
  },
  has_preorders: { kind: 'bool', doc: 'Bookings with (true) or without (false) pre-orders', compile: booleanFilter },
  private_hire: { kind: 'bool', doc: 'Private-hire bookings (true) or the others (false)', compile: booleanFilter },
  labels: {
    kind: 'ids',
    doc: 'Label ids; bookings carrying all of them',
    compile: (d) => {
      const ls = list(d.params.labels);
      if (!ls.length) bad(d, 'labels', 'labels must list one or more label ids');
      else d.preds.push((b) => ls.every((l) => b.labels.includes(l)));
    },
  },
  date: {
    kind: 'range',
    doc: 'Booking date range: <from> TO <to>, * for an open end, or one date',
    compile: bookingDateFilter,
  },
  created_date: { kind: 'range', doc: 'Creation date range (UTC)', compile: instantFilter },
  last_updated: { kind: 'range', doc: 'Last update date range (UTC)', compile: instantFilter },
  follow_up: { kind: 'range', doc: 'Follow-up date range (UTC)', compile: instantFilter },
  num_people: {
    kind: 'range',
    doc: 'Party size range, e.g. 1 TO 5, 10 TO *',
    compile: (d) => {
      const r = parseRange(text(d, 'num_people'), (v) => int(v) ?? null);
      if (!r) bad(d, 'num_people', 'num_people must be a number range such as 1 TO 5 or 10 TO *');
      else
        d.preds.push(
          (b) => (r.lo === undefined || b.num_people >= r.lo) && (r.hi === undefined || b.num_people <= r.hi),
        );
    },
  },
  start_time: { kind: 'range', doc: 'Start time range, e.g. 12:00 TO 17:00', compile: timeRangeFilter },
  time: {
    kind: 'range',
    doc: 'Bookings running at some moment of a time range, e.g. * TO 10:00',
    compile: timeRangeFilter,
  },
  notifications: {
    kind: 'choice',
    doc: 'One notification value (customer_cancelled also needs status=rejected)',
    choices: Object.keys(NOTIFICATIONS),
    compile: (d) => {
      const n = text(d, 'notifications');
      const test = NOTIFICATIONS[n];
      if (!test)
        return bad(d, 'notifications', `notifications must be one of ${Object.keys(NOTIFICATIONS).join(', ')}`);
      if (n === 'customer_cancelled' && !d.statuses.has('rejected'))
        bad(d, 'notifications', 'customer_cancelled also requires status=rejected (or include_rejected)');
      d.preds.push((b) => test(b, d.nowMs, d.today));
    },
  },
};

/** Stage 1: which venues' bookings the app may read, narrowed by `venue_id`; 403 when it names a forbidden one. */
function venueScope(d: SearchDraft, access: Access): void {
  const readable = access.venues('read_bookings');
  const { params } = d;
  if (str(params, 'venue_id') !== undefined || Array.isArray(params.venue_id)) {
    const venueIds = list(params.venue_id);
    if (venueIds.some((v) => !isHexId(v))) bad(d, 'venue_id', 'venue_id must be one or more comma-separated hex ids');
    const forbidden = venueIds.filter((v) => isHexId(v) && d.store.venues.has(v) && !readable.has(v));
    if (forbidden.length)
      throw new ApiError(403, `These credentials cannot read bookings of venue ${forbidden.join(', ')}`);
    const set = new Set(venueIds);
    d.preds.push((b) => set.has(b.venue_id));
  }
  if (!readable.size && access.app.capabilities !== 'all')
    throw new ApiError(403, 'These credentials cannot read bookings');
  if (access.app.capabilities !== 'all') d.preds.push((b) => readable.has(b.venue_id));
}

/** Stage 2: the `status` filter (default `all`). */
function statusScope(d: SearchDraft): void {
  for (const s of d.params.status !== undefined ? list(d.params.status) : ['all']) {
    const selected = STATUS_FILTERS[s];
    if (!selected) bad(d, 'status', `Unknown status filter ${s}; use ${Object.keys(STATUS_FILTERS).join(', ')}`);
    else selected.forEach((x) => d.statuses.add(x));
  }
  d.preds.push((b) => d.statuses.has(b.status));
}

/** Stage 4: sort, page and projection. */
function pageOf(d: SearchDraft) {
  const { params } = d;
  const sort = str(params, 'sort') ?? 'date_asc';
  if (!(SORTS as readonly string[]).includes(sort)) bad(d, 'sort', `sort must be one of ${SORTS.join(' | ')}`);
  const start = params.start === undefined ? 0 : int(str(params, 'start'));
  if (start === undefined || start < 0) bad(d, 'start', 'start must be a whole number of 0 or more');
  const limit = params.limit === undefined ? 30 : int(str(params, 'limit'));
  if (limit === undefined || limit < 1 || limit > 1000) bad(d, 'limit', 'limit must be a whole number from 1 to 1000');
  const fields = params.fields === undefined ? undefined : list(params.fields);
  return { sort, start: start!, limit: limit!, fields };
}

/** A search result record restricted to `fields` (with the extra fields a search may ask for). */
function projected(store: Store, b: Booking, fields: string[] | undefined): Record<string, unknown> {
  const rec = searchRecord(store, b);
  if (!fields) return rec;
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    if (f in rec) out[f] = rec[f];
    else {
      const extra = searchExtra(b, f);
      if (extra !== undefined) out[f] = extra;
    }
  }
  return out;
}

/** The parameters of a search (§4.6): scope, the filter table, sort and page. */
export const SEARCH_PARAMS: ParamTable = {
  venue_id: { kind: 'ids', doc: 'Venue ids, comma separated (default: every venue the app may read)' },
  status: {
    kind: 'ids',
    doc: `Status filter values, comma separated: ${Object.keys(STATUS_FILTERS).join(', ')} (default all)`,
  },
  ...Object.fromEntries(
    Object.entries(FILTERS).map(([key, f]) => [key, { kind: f.kind, doc: f.doc, choices: f.choices }]),
  ),
  sort: { kind: 'choice', choices: SORTS, doc: 'Order of the results (default date_asc)' },
  start: { kind: 'int', doc: 'Zero-based index of the first result (default 0)' },
  limit: { kind: 'int', doc: 'Results per page, 1 to 1000 (default 30)' },
  fields: { kind: 'ids', doc: 'Fields to return, comma separated (also estimated_value, reference, notes, …)' },
};

/**
 * Runs a search (§4.6) in stages: the venues the app may read, the status filter, the filter
 * table, then sort and page. One 400 lists every malformed parameter.
 */
export function search(store: Store, access: Access, params: Params, nowMs: number) {
  const d: SearchDraft = {
    store,
    params,
    nowMs,
    today: londonDate(nowMs),
    errors: [],
    preds: [],
    statuses: new Set(),
  };
  venueScope(d, access);
  statusScope(d);
  for (const [key, filter] of Object.entries(FILTERS)) if (params[key] !== undefined) filter.compile(d, key);
  const page = pageOf(d);
  throwIfErrors(d.errors, 'The search parameters are not valid');

  const matched: Booking[] = [];
  outer: for (const b of store.bookings) {
    for (const p of d.preds) if (!p(b)) continue outer;
    matched.push(b);
  }
  const found = topK(matched, page.start + page.limit, comparator(page.sort)).slice(
    page.start,
    page.start + page.limit,
  );
  return { bookings: found.map((b) => projected(store, b, page.fields)), start: page.start, numFound: matched.length };
}

function comparator(sort: string): (a: Booking, b: Booking) => number {
  const byDate = (a: Booking, b: Booking) =>
    a.date < b.date
      ? -1
      : a.date > b.date
        ? 1
        : a.time < b.time
          ? -1
          : a.time > b.time
            ? 1
            : a.booking_id - b.booking_id;
  switch (sort) {
    case 'date_desc':
      return (a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : a.booking_id - b.booking_id);
    case 'date_desc,time_desc':
      return (a, b) => -byDate(a, b);
    case 'created_date_asc':
      return (a, b) => a.created_date - b.created_date || a.booking_id - b.booking_id;
    case 'created_date_desc':
      return (a, b) => b.created_date - a.created_date || b.booking_id - a.booking_id;
    case 'status_changed_date':
      return (a, b) =>
        (b.status_changed_date ?? -Infinity) - (a.status_changed_date ?? -Infinity) || b.booking_id - a.booking_id;
    default:
      return byDate;
  }
}

/** The first k items in order: a bounded insertion selection when k is small, else a full sort. */
export function topK<T>(items: T[], k: number, cmp: (a: T, b: T) => number): T[] {
  if (k >= items.length / 8) return [...items].sort(cmp).slice(0, k);
  const out: T[] = [];
  for (const it of items) {
    if (out.length === k && cmp(it, out[k - 1]!) >= 0) continue;
    let lo = 0,
      hi = out.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cmp(out[mid]!, it) <= 0) lo = mid + 1;
      else hi = mid;
    }
    out.splice(lo, 0, it);
    if (out.length > k) out.pop();
  }
  return out;
}
