/**
 * People: venue-group users (§4.10, §2.14), event guests (§4.11, §2.12) and customer users
 * (§4.12, §2.13), with user data limited to what the caller may see (§5.5): a customer is visible
 * when the app may view customers of one of the customer's associated venues.
 */

import type { Ctx, Handler, Route } from './context.js';
import { parseCapability } from './auth.js';
import {
  ApiError,
  badField,
  bool,
  EMAIL_RE,
  int,
  isHexId,
  list,
  str,
  throwIfErrors,
  type FieldError,
  type Params,
} from './http.js';
import { topK } from './bookings/index.js';
import { isDate, londonDate, londonTimestamp } from './time.js';
import type { Kind, ParamTable } from './schema.js';
import type { GroupUser, User } from './types.js';

/** Users search page size (§8) and CSV page size. */
export const USERS_PAGE = 30;
export const USERS_CSV_PAGE = 25_000;

function groupOr404(ctx: Ctx) {
  const id = ctx.path('venue_group_id');
  const group = ctx.store.groups.get(id);
  if (!group) throw new ApiError(404, `Venue group ${id} not found`);
  return group;
}

/**
 * Validates capability strings for a group: well formed (§4.10 prefix + 24-hex id), targeting the
 * group itself or one of its venues, with the right scope; and the caller must be allowed to grant
 * them (group permission manager, or venue permission manager for that venue's capabilities).
 */
function checkCapabilities(ctx: Ctx, groupId: string, raw: unknown, errors: FieldError[]): string[] | undefined {
  if (!Array.isArray(raw)) {
    errors.push({
      code: 'invalid_capabilities',
      message: 'capabilities must be an array of capability strings',
      fields: ['capabilities'],
    });
    return undefined;
  }
  const out: string[] = [];
  for (const cap of raw) {
    const parsed = parseCapability(cap);
    if (!parsed) {
      errors.push({
        code: 'invalid_capabilities',
        message: `Malformed capability: ${String(cap).slice(0, 100)}`,
        fields: ['capabilities'],
      });
      continue;
    }
    const inGroup =
      parsed.scope === 'group'
        ? parsed.target === groupId
        : ctx.store.venues.get(parsed.target)?.venue_group === groupId;
    if (!inGroup) {
      errors.push({
        code: 'capability_outside_group',
        message: `${cap} does not target this venue group or one of its venues`,
        fields: ['capabilities'],
      });
      continue;
    }
    const mayGrant =
      ctx.access.canGroup('manage_permissions', groupId) ||
      (parsed.scope === 'venue' && ctx.access.can('manage_permissions', parsed.target));
    if (!mayGrant) throw new ApiError(403, `These credentials cannot grant ${cap}`);
    out.push(cap as string);
  }
  return [...new Set(out)];
}

function mayManageGroupUsers(ctx: Ctx, groupId: string) {
  if (ctx.access.canGroup('manage_permissions', groupId)) return;
  const venues = [...ctx.store.venues.values()].filter((v) => v.venue_group === groupId);
  if (!venues.some((v) => ctx.access.can('manage_permissions', v._id)))
    throw new ApiError(403, 'These credentials cannot manage users of this venue group');
}

function names(params: Params, errors: FieldError[], patch: Partial<GroupUser>) {
  for (const key of ['first_name', 'last_name'] as const) {
    const v = params[key];
    if (v === undefined) continue;
    if (typeof v !== 'string' || v.length > 100)
      errors.push({ code: `invalid_${key}`, message: `${key} must be text of at most 100 characters`, fields: [key] });
    else patch[key] = v.trim();
  }
}

function customerVisible(ctx: Ctx, u: User, perm: 'view_customers' | 'download_customers' = 'view_customers') {
  return ctx.access.app.capabilities === 'all' || u.associated_venues.some((v) => ctx.access.can(perm, v));
}

function userOr404(ctx: Ctx): User {
  const id = ctx.path('user_id');
  const u = ctx.store.users.get(id);
  if (!ctx.access.venues('view_customers').size && ctx.access.app.capabilities !== 'all')
    throw new ApiError(403, 'These credentials cannot view customers');
  // An invisible customer is reported as missing, so the API does not reveal who exists.
  if (!u || !customerVisible(ctx, u)) throw new ApiError(404, `User ${id} not found`);
  return u;
}

function projectUser(u: User, fields: string[] | undefined): Record<string, unknown> {
  const rec = u as unknown as Record<string, unknown>;
  if (!fields?.length) return { ...rec };
  const out: Record<string, unknown> = { _id: u._id };
  for (const f of fields) if (rec[f] !== undefined) out[f] = rec[f];
  return out;
}

function csvCell(v: unknown): string {
  let s = v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`; // no spreadsheet formulas from customer data
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const USER_FIELDS = [
  '_id',
  'created_date',
  'last_updated',
  'first_name',
  'last_name',
  'username',
  'email',
  'phone',
  'dob',
  'gender',
  'company',
  'status',
  'wishlist',
  'associated_venues',
  'marketing_permission',
  'marketing_preferences',
];

/** §4.10 adds a user to a venue group. */
const addGroupUser: Handler = (ctx) => {
  const group = groupOr404(ctx);
  mayManageGroupUsers(ctx, group._id);
  const errors: FieldError[] = [];
  const email = newGroupUserEmail(ctx, group._id, errors);
  const patch: Partial<GroupUser> = {};
  names(ctx.params, errors, patch);
  const caps =
    ctx.params.capabilities === undefined ? [] : checkCapabilities(ctx, group._id, ctx.params.capabilities, errors);
  throwIfErrors(errors);
  const user: GroupUser = {
    _id: ctx.store.newId(),
    venue_group: group._id,
    email: email!,
    first_name: patch.first_name ?? '',
    last_name: patch.last_name ?? '',
    capabilities: caps ?? [],
  };
  ctx.store.groupUsers.set(user._id, user);
  return { user };
};

/** The email of a new venue-group user: required, well formed, not yet in the group. */
function newGroupUserEmail(ctx: Ctx, groupId: string, errors: FieldError[]): string | undefined {
  const email = str(ctx.params, 'email');
  if (!email) errors.push({ code: 'missing_email', message: 'email is required', fields: ['email'] });
  else if (!EMAIL_RE.test(email) || email.length > 254)
    errors.push({ code: 'invalid_email', message: 'email is not a valid address', fields: ['email'] });
  else if (
    [...ctx.store.groupUsers.values()].some(
      (u) => u.venue_group === groupId && u.email.toLowerCase() === email.toLowerCase(),
    )
  ) {
    errors.push({
      code: 'user_exists',
      message: 'A user with this email already belongs to the venue group',
      fields: ['email'],
    });
  }
  return email;
}

/** The venue-group user named by the path, after checking the app may manage the group's users. */
function groupUserOf(ctx: Ctx) {
  const group = groupOr404(ctx);
  mayManageGroupUsers(ctx, group._id);
  const user = ctx.store.groupUsers.get(ctx.path('user_id'));
  if (!user || user.venue_group !== group._id)
    throw new ApiError(404, `User ${ctx.path('user_id')} not found in this venue group`);
  return { group, user };
}

/** §4.10 edits a venue-group user (email, names, capabilities). */
const editGroupUser: Handler = (ctx) => {
  const { group, user } = groupUserOf(ctx);
  const errors: FieldError[] = [];
  const unknown = Object.keys(ctx.params).filter(
    (k) => !['email', 'first_name', 'last_name', 'capabilities'].includes(k),
  );
  if (unknown.length)
    errors.push({ code: 'unknown_field', message: `Cannot update: ${unknown.join(', ')}`, fields: unknown });
  const patch: Partial<GroupUser> = {};
  names(ctx.params, errors, patch);
  const email = ctx.params.email;
  if (email !== undefined) {
    if (typeof email !== 'string' || !EMAIL_RE.test(email))
      errors.push({ code: 'invalid_email', message: 'email is not a valid address', fields: ['email'] });
    else patch.email = email;
  }
  if (ctx.params.capabilities !== undefined) {
    const caps = checkCapabilities(ctx, group._id, ctx.params.capabilities, errors);
    if (caps) patch.capabilities = caps;
  }
  throwIfErrors(errors);
  Object.assign(user, patch);
  return { user };
};

/** §4.11 guests and tickets of one occurrence of a ticketed event. */
const eventGuests: Handler = (ctx) => {
  const event = ctx.store.events.get(ctx.path('event_id'));
  if (!event) throw new ApiError(404, `Event ${ctx.path('event_id')} not found`);
  ctx.access.require('read_bookings', event.venue_id);
  const occurrence = str(ctx.params, 'occurrence');
  if (!occurrence)
    throw badField('occurrence', 'missing_occurrence', 'occurrence (the event date, YYYY-MM-DD) is required');
  const date = occurrence.replace(/T00:00(:00)?$/, '');
  if (!isDate(date))
    throw badField('occurrence', 'invalid_occurrence', 'occurrence must be a date in the form YYYY-MM-DD');
  const occ = event.occurrences.find((o) => o.date === date);
  if (!occ) throw new ApiError(404, `${event.name} has no occurrence on ${date}`);
  return { guests: occ.guests };
};

/** A users search as read from its parameters. */
interface UserSearch {
  csv: boolean;
  perm: 'view_customers' | 'download_customers';
  start: number;
  limit: number;
  fields?: string[];
  sortKey: string;
  desc: boolean;
  term: string;
}

/** Reads `sort` (field, -field or field_desc) into a key and a direction; an error when unknown. */
function readUserSort(raw: string | undefined, csv: boolean, errors: FieldError[]): { sortKey: string; desc: boolean } {
  const fallback = { sortKey: 'last_name', desc: false };
  if (raw === undefined) return fallback;
  if (csv)
    errors.push({ code: 'sort_unsupported', message: 'Sorting is not supported with output=csv', fields: ['sort'] });
  const m = /^(-)?([a-z_]+?)(?:_(asc|desc))?$/.exec(raw);
  const key =
    m && USER_FIELDS.includes(m[2]!)
      ? m[2]!
      : m && USER_FIELDS.includes(`${m[2]}_${m[3]}`)
        ? `${m[2]}_${m[3]}`
        : undefined;
  if (!m || !key) {
    errors.push({
      code: 'invalid_sort',
      message: `sort must be a user field (optionally -field or field_desc): ${USER_FIELDS.join(', ')}`,
      fields: ['sort'],
    });
    return fallback;
  }
  return { sortKey: key, desc: m[1] === '-' || (m[3] === 'desc' && key === m[2]) };
}

/** Stage 1 of a users search: output, permission, paging, fields and sort; one 400 with every error. */
function readUserSearch(ctx: Ctx): UserSearch {
  const p = ctx.params;
  const csv = str(p, 'output') === 'csv';
  if (p.output !== undefined && !csv && str(p, 'output') !== 'json')
    throw badField('output', 'invalid_output', 'output must be csv (or json)');
  const perm = csv ? 'download_customers' : 'view_customers';
  if (!ctx.access.venues(perm).size && ctx.access.app.capabilities !== 'all')
    throw new ApiError(403, `These credentials cannot ${csv ? 'download' : 'view'} customers`);
  const errors: FieldError[] = [];
  const start = p.start === undefined ? 0 : int(str(p, 'start'));
  if (start === undefined || start < 0)
    errors.push({ code: 'invalid_start', message: 'start must be a whole number of 0 or more', fields: ['start'] });
  const max = csv ? USERS_CSV_PAGE : USERS_PAGE;
  const limit = p.limit === undefined ? max : int(str(p, 'limit'));
  if (limit === undefined || limit < 1 || limit > max)
    errors.push({ code: 'invalid_limit', message: `limit must be from 1 to ${max}`, fields: ['limit'] });
  const fields = p.fields === undefined ? undefined : list(p.fields);
  const badFields = (fields ?? []).filter((f) => !USER_FIELDS.includes(f));
  if (badFields.length)
    errors.push({
      code: 'invalid_fields',
      message: `Unknown user fields: ${badFields.join(', ')}`,
      fields: ['fields'],
    });
  const sort = readUserSort(str(p, 'sort'), csv, errors);
  throwIfErrors(errors, 'The users search parameters are not valid');
  return { csv, perm, start: start!, limit: limit!, fields, ...sort, term: (str(p, 'search') ?? '').toLowerCase() };
}

/** Stage 2: the customers the app may see that match the search text (email, last name, phone digits). */
function matchUsers(ctx: Ctx, q: UserSearch): User[] {
  const digits = q.term.replace(/[^\d]/g, '');
  return [...ctx.store.users.values()].filter(
    (u) =>
      customerVisible(ctx, u, q.perm) &&
      (!q.term ||
        u.email.toLowerCase().includes(q.term) ||
        u.last_name.toLowerCase().includes(q.term) ||
        (digits.length >= 4 && u.phone.replace(/[^\d]/g, '').includes(digits))),
  );
}

/** Stage 3: the page (CSV keeps store order: sorting is unsupported there). */
function userPage(matched: User[], q: UserSearch): User[] {
  const end = q.start + q.limit;
  if (q.csv) return matched.slice(q.start, end);
  const field = (u: User) => String((u as unknown as Record<string, unknown>)[q.sortKey] ?? '');
  return topK(matched, end, (a, b) => {
    const av = field(a),
      bv = field(b);
    return (av < bv ? -1 : av > bv ? 1 : a._id < b._id ? -1 : 1) * (q.desc ? -1 : 1);
  }).slice(q.start, end);
}

/** The CSV answer of `output=csv` (a download, not an envelope). */
function usersCsv(page: User[], fields: string[] | undefined): Response {
  const cols = fields?.length ? ['_id', ...fields.filter((f) => f !== '_id')] : USER_FIELDS;
  const rows = [
    cols.join(','),
    ...page.map((u) => cols.map((c) => csvCell((u as unknown as Record<string, unknown>)[c])).join(',')),
  ];
  return new Response(rows.join('\r\n') + '\r\n', {
    status: 200,
    headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': 'attachment; filename="users.csv"' },
  });
}

/** §4.12 users search (JSON or CSV). */
const searchUsers: Handler = (ctx) => {
  const q = readUserSearch(ctx);
  const matched = matchUsers(ctx, q);
  const page = userPage(matched, q);
  if (q.csv) return usersCsv(page, q.fields);
  return { users: page.map((u) => projectUser(u, q.fields)), start: q.start, numFound: matched.length };
};

/** §4.12 one customer user, optionally projected by `fields`. */
const readUser: Handler = (ctx) => {
  const fields = ctx.params.fields === undefined ? undefined : list(ctx.params.fields);
  const bad = (fields ?? []).filter((f) => !USER_FIELDS.includes(f));
  if (bad.length) throw badField('fields', 'invalid_fields', `Unknown user fields: ${bad.join(', ')}`);
  return projectUser(userOr404(ctx), fields);
};

/** Checks one present field of a user update; returns its value or pushes a field error. */
type UserFieldRule = (value: unknown, ctx: Ctx, errors: FieldError[]) => unknown;

const userText =
  (key: string): UserFieldRule =>
  (v, _ctx, errors) => {
    if (typeof v !== 'string' || v.length > 200 || ((key === 'first_name' || key === 'last_name') && !v.trim())) {
      errors.push({
        code: `invalid_${key}`,
        message: `${key} must be non-empty text of at most 200 characters`,
        fields: [key],
      });
      return undefined;
    }
    return v.trim();
  };

/** The rule table of a customer user update (§4.12, fields not shown by the spec): one rule per updatable field. */
const USER_UPDATE_RULES: Record<string, { kind: Kind; doc: string; read: UserFieldRule }> = {
  first_name: { kind: 'text', doc: 'First name (not empty)', read: userText('first_name') },
  last_name: { kind: 'text', doc: 'Last name (not empty)', read: userText('last_name') },
  username: { kind: 'text', doc: 'User name', read: userText('username') },
  gender: { kind: 'text', doc: 'Gender', read: userText('gender') },
  company: { kind: 'text', doc: 'Company', read: userText('company') },
  phone: { kind: 'text', doc: 'Phone number', read: userText('phone') },
  email: {
    kind: 'text',
    doc: 'Email address',
    read: (v, _ctx, errors) => {
      if (typeof v === 'string' && EMAIL_RE.test(v)) return v;
      errors.push({ code: 'invalid_email', message: 'email is not a valid address', fields: ['email'] });
    },
  },
  dob: {
    kind: 'date',
    doc: 'Date of birth, YYYY-MM-DD, not in the future',
    read: (v, ctx, errors) => {
      if (isDate(v) && (v as string) <= londonDate(ctx.now)) return v;
      errors.push({ code: 'invalid_dob', message: 'dob must be a past date YYYY-MM-DD', fields: ['dob'] });
    },
  },
  marketing_permission: {
    kind: 'bool',
    doc: 'Marketing permission for the venue group',
    read: (v, _ctx, errors) => {
      const b = bool(v);
      if (b !== undefined) return b;
      errors.push({
        code: 'invalid_marketing_permission',
        message: 'marketing_permission must be true or false',
        fields: ['marketing_permission'],
      });
    },
  },
};

/** The fields a customer user update accepts. */
const USER_UPDATABLE = Object.keys(USER_UPDATE_RULES);

/** §4.12 updates a customer user through {@link USER_UPDATE_RULES}; one 400 with every error. */
const updateUser: Handler = (ctx) => {
  const u = userOr404(ctx);
  const errors: FieldError[] = [];
  const unknown = Object.keys(ctx.params).filter((k) => !USER_UPDATABLE.includes(k));
  if (unknown.length)
    errors.push({
      code: 'unknown_field',
      message: `Cannot update: ${unknown.join(', ')}; updatable: ${USER_UPDATABLE.join(', ')}`,
      fields: unknown,
    });
  const patch: Record<string, unknown> = {};
  for (const [key, rule] of Object.entries(USER_UPDATE_RULES)) {
    if (ctx.params[key] === undefined) continue;
    const value = rule.read(ctx.params[key], ctx, errors);
    if (value !== undefined) patch[key] = value;
  }
  throwIfErrors(errors);
  Object.assign(u, patch, { last_updated: londonTimestamp(ctx.now) });
  return projectUser(u, undefined);
};

/** Every marketing preference id the sandbox defines (groups' and venues'). */
function knownPreferenceIds(ctx: Ctx): Set<string> {
  const known = new Set<string>();
  for (const g of ctx.store.groups.values()) for (const m of g.marketing_preferences ?? []) known.add(m.id);
  for (const v of ctx.store.venues.values()) for (const m of v.marketing_preferences ?? []) known.add(m.id);
  return known;
}

/** Reads `marketing_preferences: [{ id, opt_in }]` (opt_in a boolean or its string); one 400 with every error. */
function readPreferenceChanges(ctx: Ctx): { id: string; optIn: boolean }[] {
  const raw = ctx.params.marketing_preferences;
  if (!Array.isArray(raw) || !raw.length)
    throw badField(
      'marketing_preferences',
      'invalid_marketing_preferences',
      'marketing_preferences must be a non-empty array of { id, opt_in }',
    );
  const known = knownPreferenceIds(ctx);
  const errors: FieldError[] = [];
  const changes: { id: string; optIn: boolean }[] = [];
  raw.forEach((item, i) => {
    const id = item && typeof item === 'object' ? (item as Record<string, unknown>).id : undefined;
    const optIn = item && typeof item === 'object' ? bool((item as Record<string, unknown>).opt_in) : undefined;
    if (!isHexId(id) || !known.has(id))
      errors.push({
        code: 'invalid_marketing_preference',
        message: `Item ${i}: unknown preference id`,
        fields: [`marketing_preferences[${i}].id`],
      });
    else if (optIn === undefined)
      errors.push({
        code: 'invalid_opt_in',
        message: `Item ${i}: opt_in must be true or false (boolean or string)`,
        fields: [`marketing_preferences[${i}].opt_in`],
      });
    else changes.push({ id, optIn });
  });
  throwIfErrors(errors);
  return changes;
}

/** §4.12 opts a customer in or out of marketing preferences. */
const updateUserPreferences: Handler = (ctx) => {
  const u = userOr404(ctx);
  const changes = readPreferenceChanges(ctx);
  const stamp = londonTimestamp(ctx.now);
  for (const { id, optIn } of changes) {
    let pref = u.marketing_preferences.find((m) => m.id === id);
    if (!pref) u.marketing_preferences.push((pref = { id, opt_in_date: null, opt_out_date: null }));
    if (optIn) {
      pref.opt_in_date = stamp;
      pref.opt_out_date = null;
    } else pref.opt_out_date = stamp;
  }
  u.last_updated = stamp;
  return projectUser(u, undefined);
};

/** The fields of a venue-group user in a request (§2.14). */
const GROUP_USER_PARAMS: ParamTable = {
  email: { kind: 'text', doc: 'Email address (required to add a user)' },
  first_name: { kind: 'text', max: 100, doc: 'First name' },
  last_name: { kind: 'text', max: 100, doc: 'Last name' },
  capabilities: { kind: 'ids', doc: 'Capability strings (§4.10): prefix, underscore, venue or group id' },
};

/** The parameters of a users search (§4.12). */
const USER_SEARCH_PARAMS: ParamTable = {
  search: { kind: 'text', doc: 'Text over email, last name and phone' },
  start: { kind: 'int', doc: 'Offset (default 0)' },
  limit: { kind: 'int', doc: `Page size, at most ${USERS_PAGE} (CSV: ${USERS_CSV_PAGE})` },
  sort: { kind: 'text', doc: 'A user field, -field or field_desc (default last_name); not with CSV' },
  fields: { kind: 'ids', doc: `User fields to return: ${USER_FIELDS.join(', ')}` },
  output: { kind: 'choice', choices: ['json', 'csv'], doc: 'csv answers a CSV download instead of JSON' },
};

const usersSearch = {
  run: searchUsers,
  summary: '§4.12 Search customer users (deprecated for customer data); output=csv for a download',
  params: USER_SEARCH_PARAMS,
  payload: 'UserSearch',
  alsoAnswers: { 'text/csv': { type: 'string' } },
};

/** The people route table: venue-group users, event guests, customer users. */
export const PEOPLE_ROUTES: Route[] = [
  {
    path: '/venue-groups/{venue_group_id}/users',
    methods: {
      POST: {
        run: addGroupUser,
        summary: '§4.10 Add a user to a venue group',
        params: { ...GROUP_USER_PARAMS, email: { ...GROUP_USER_PARAMS.email!, required: true } },
        payload: 'GroupUserAnswer',
      },
      GET: {
        run: (ctx) => {
          const group = groupOr404(ctx);
          mayManageGroupUsers(ctx, group._id);
          return { users: [...ctx.store.groupUsers.values()].filter((u) => u.venue_group === group._id) };
        },
        summary: 'The users of a venue group (a sandbox addition)',
        payload: 'GroupUserList',
      },
    },
  },
  {
    path: '/venue-groups/{venue_group_id}/users/{user_id}',
    methods: {
      POST: {
        run: editGroupUser,
        summary: '§4.10 Edit a venue-group user',
        params: GROUP_USER_PARAMS,
        payload: 'GroupUserAnswer',
      },
      DELETE: {
        run: (ctx) => {
          const { user } = groupUserOf(ctx);
          ctx.store.groupUsers.delete(user._id);
          return { deleted: true, _id: user._id };
        },
        summary: '§4.10 Remove a user from the venue group',
        payload: 'Deleted',
      },
    },
  },
  {
    path: '/events/{event_id}/guests',
    methods: {
      GET: {
        run: eventGuests,
        summary: '§4.11 Guests and tickets of one occurrence of a ticketed event',
        params: { occurrence: { kind: 'date', doc: 'The event date, YYYY-MM-DD', required: true } },
        payload: 'Guests',
      },
    },
  },
  { path: '/users', methods: { GET: usersSearch } },
  { path: '/users/', methods: { GET: usersSearch } },
  {
    path: '/users/{user_id}',
    methods: {
      GET: {
        run: readUser,
        summary: '§4.12 One customer user',
        params: { fields: USER_SEARCH_PARAMS.fields! },
        payload: 'User',
      },
      POST: {
        run: updateUser,
        summary: '§4.12 Update a customer user',
        params: Object.fromEntries(
          Object.entries(USER_UPDATE_RULES).map(([key, rule]) => [key, { kind: rule.kind, doc: rule.doc }]),
        ),
        payload: 'User',
      },
    },
  },
  {
    path: '/users/{user_id}/marketing-preferences',
    methods: {
      POST: {
        run: updateUserPreferences,
        summary: '§4.12 Opt a customer in or out of marketing preferences',
        params: {
          marketing_preferences: {
            kind: 'objects',
            required: true,
            doc: 'Preferences to set: { id, opt_in } (opt_in a boolean or its text)',
            item: {
              type: 'object',
              required: ['id', 'opt_in'],
              properties: { id: { type: 'string' }, opt_in: { type: ['boolean', 'string'] } },
            },
          },
        },
        payload: 'User',
      },
    },
  },
];
