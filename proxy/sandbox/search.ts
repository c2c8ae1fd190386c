/**
 * Booking search (§4.6, deprecated but working): every filter, the range grammar, every sort,
 * `fields` projection and paging, over the store's linear list.
 *
 * Speed: each filter compiles once into a predicate over plain strings and numbers (no Date objects
 * per booking), and when only a page is wanted from many matches a bounded top-k selection replaces
 * a full sort, which keeps 100,000 bookings well under the 50 ms goal.
 */

import type { Access } from './auth.js';
import { searchExtra, searchRecord } from './bookings.js';
import { ApiError, bool, int, isHexId, list, str, throwIfErrors, type FieldError, type Params } from './http.js';
import type { Store } from './store.js';
import { isDate, londonDate, londonInstant, parseTime, addDays } from './time.js';
import type { Booking, BookingStatus } from './types.js';

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

/** Parses the whole search request into a predicate list, sort and page; 400 on any malformed filter. */
export function search(store: Store, access: Access, params: Params, nowMs: number) {
  const errors: FieldError[] = [];
  const bad = (field: string, message: string) => errors.push({ code: `invalid_${field}`, message, fields: [field] });
  const preds: ((b: Booking) => boolean)[] = [];
  const today = londonDate(nowMs);

  const readable = access.venues('read_bookings');
  const venueIds =
    str(params, 'venue_id') !== undefined || Array.isArray(params.venue_id) ? list(params.venue_id) : undefined;
  if (venueIds) {
    const malformed = venueIds.filter((v) => !isHexId(v));
    if (malformed.length) bad('venue_id', 'venue_id must be one or more comma-separated hex ids');
    const forbidden = venueIds.filter((v) => isHexId(v) && store.venues.has(v) && !readable.has(v));
    if (forbidden.length)
      throw new ApiError(403, `These credentials cannot read bookings of venue ${forbidden.join(', ')}`);
    const set = new Set(venueIds);
    preds.push((b) => set.has(b.venue_id));
  }
  if (!readable.size && access.app.capabilities !== 'all')
    throw new ApiError(403, 'These credentials cannot read bookings');
  if (access.app.capabilities !== 'all') preds.push((b) => readable.has(b.venue_id));

  const statusRaw = params.status !== undefined ? list(params.status) : ['all'];
  const statuses = new Set<BookingStatus>();
  for (const s of statusRaw) {
    const sel = STATUS_FILTERS[s];
    if (!sel) bad('status', `Unknown status filter ${s}; use ${Object.keys(STATUS_FILTERS).join(', ')}`);
    else sel.forEach((x) => statuses.add(x));
  }
  preds.push((b) => statuses.has(b.status));

  const hexList = (key: 'type' | 'assigned_to') => {
    if (params[key] === undefined) return;
    const ids = list(params[key]);
    if (!ids.length || ids.some((i) => !isHexId(i)))
      return bad(key, `${key} must be one or more comma-separated hex ids`);
    const set = new Set(ids);
    preds.push(key === 'type' ? (b) => set.has(b.type) : (b) => b.assigned_to !== null && set.has(b.assigned_to));
  };
  hexList('type');
  hexList('assigned_to');

  if (params.booking_id !== undefined) {
    const n = int(str(params, 'booking_id'));
    if (n === undefined || n < 0) bad('booking_id', 'booking_id must be a number');
    else preds.push((b) => b.booking_id === n);
  }
  if (params.email !== undefined) {
    const e = str(params, 'email')?.toLowerCase();
    if (!e || !e.includes('@')) bad('email', 'email must be a full email address');
    else preds.push((b) => b.email !== null && b.email.toLowerCase() === e);
  }
  if (params.phone !== undefined) {
    const p = (str(params, 'phone') ?? '').replace(/[^\d+]/g, '');
    if (p.length < 4) bad('phone', 'phone must be a phone number');
    else preds.push((b) => b.phone !== null && b.phone.replace(/[^\d+]/g, '') === p);
  }
  if (params.query !== undefined) {
    const words = (str(params, 'query') ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    if (!words.length) bad('query', 'query must not be empty');
    else
      preds.push((b) => {
        const hay = `${b.first_name} ${b.last_name} ${b.email ?? ''} ${b.company ?? ''}`.toLowerCase();
        return words.every((w) => hay.includes(w));
      });
  }
  for (const key of ['has_preorders', 'private_hire'] as const) {
    if (params[key] === undefined) continue;
    const v = bool(str(params, key));
    if (v === undefined) {
      bad(key, `${key} must be true or false`);
      continue;
    }
    if (key === 'has_preorders') preds.push((b) => b.preorders.length > 0 === v);
    else {
      const ph = new Set(
        [...store.venues.values()].flatMap((ve) => ve.booking_types.filter((t) => t.private_hire).map((t) => t.id)),
      );
      preds.push((b) => ph.has(b.type) === v);
    }
  }
  if (params.labels !== undefined) {
    const ls = list(params.labels);
    if (!ls.length) bad('labels', 'labels must list one or more label ids');
    else preds.push((b) => ls.every((l) => b.labels.includes(l)));
  }

  // Date ranges: `date` compares business dates; the timestamps compare UTC instants.
  if (params.date !== undefined) {
    const r = dateRange(str(params, 'date') ?? '');
    if (!r) bad('date', 'date must be a date range: <from> TO <to>, * for an open end, or one date');
    else {
      // Booking dates are midnights: compare as strings against the first and last whole dates in range.
      const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
      const lo = r.lo === undefined ? undefined : r.lo % 86_400_000 === 0 ? day(r.lo) : day(r.lo + 86_400_000);
      const hi = r.hi === undefined ? undefined : day(r.hi);
      preds.push((b) => (lo === undefined || b.date >= lo) && (hi === undefined || b.date <= hi));
    }
  }
  for (const key of ['created_date', 'last_updated', 'follow_up'] as const) {
    if (params[key] === undefined) continue;
    const r = dateRange(str(params, key) ?? '');
    if (!r) {
      bad(key, `${key} must be a date range: <from> TO <to>, * for an open end, or one date`);
      continue;
    }
    const { lo, hi } = r;
    preds.push((b) => {
      const v = b[key];
      return v !== null && (lo === undefined || v >= lo) && (hi === undefined || v <= hi);
    });
  }
  if (params.num_people !== undefined) {
    const r = parseRange(str(params, 'num_people') ?? '', (v) => int(v) ?? null);
    if (!r) bad('num_people', 'num_people must be a number range such as 1 TO 5 or 10 TO *');
    else
      preds.push((b) => (r.lo === undefined || b.num_people >= r.lo) && (r.hi === undefined || b.num_people <= r.hi));
  }
  for (const key of ['start_time', 'time'] as const) {
    if (params[key] === undefined) continue;
    const r = parseRange(str(params, key) ?? '', (v) => parseTime(v));
    if (!r) {
      bad(key, `${key} must be a time range such as 12:00 TO 17:00 or * TO 10:00`);
      continue;
    }
    const lo = r.lo ?? 0,
      hi = r.hi ?? 1439;
    if (key === 'start_time')
      preds.push((b) => {
        const t = parseTime(b.time) ?? -1;
        return t >= lo && t <= hi;
      });
    // `time`: the booking is running at some moment of the range (start ≤ hi and end > lo).
    else
      preds.push((b) => {
        const t = parseTime(b.time) ?? -1;
        const end = b.duration > 0 ? t + b.duration : 1440;
        return t <= hi && end > lo;
      });
  }
  if (params.notifications !== undefined) {
    const n = str(params, 'notifications') ?? '';
    const test = NOTIFICATIONS[n];
    if (!test) bad('notifications', `notifications must be one of ${Object.keys(NOTIFICATIONS).join(', ')}`);
    else {
      if (n === 'customer_cancelled' && !statuses.has('rejected')) {
        bad('notifications', 'customer_cancelled also requires status=rejected (or include_rejected)');
      }
      preds.push((b) => test(b, nowMs, today));
    }
  }

  const sort = str(params, 'sort') ?? 'date_asc';
  if (!(SORTS as readonly string[]).includes(sort)) bad('sort', `sort must be one of ${SORTS.join(' | ')}`);
  const start = params.start === undefined ? 0 : int(str(params, 'start'));
  if (start === undefined || start < 0) bad('start', 'start must be a whole number of 0 or more');
  const limit = params.limit === undefined ? 30 : int(str(params, 'limit'));
  if (limit === undefined || limit < 1 || limit > 1000) bad('limit', 'limit must be a whole number from 1 to 1000');
  const fields = params.fields === undefined ? undefined : list(params.fields);
  throwIfErrors(errors, 'The search parameters are not valid');

  const matched: Booking[] = [];
  outer: for (const b of store.bookings) {
    for (const p of preds) if (!p(b)) continue outer;
    matched.push(b);
  }
  const cmp = comparator(sort);
  const page = topK(matched, start! + limit!, cmp).slice(start!, start! + limit!);
  const bookings = page.map((b) => {
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
  });
  return { bookings, start: start!, numFound: matched.length };
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
