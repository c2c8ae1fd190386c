/**
 * People: venue-group users (§4.10, §2.14), event guests (§4.11, §2.12) and customer users
 * (§4.12, §2.13), with user data limited to what the caller may see (§5.5): a customer is visible
 * when the app may view customers of one of the customer's associated venues.
 */

import type { Ctx, Route } from './app.js';
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
import { topK } from './search.js';
import { isDate, londonDate, londonTimestamp } from './time.js';
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
const USER_UPDATABLE = [
  'first_name',
  'last_name',
  'username',
  'email',
  'phone',
  'dob',
  'gender',
  'company',
  'marketing_permission',
];

/** Registers venue-group user, event guest and customer user routes. */
export function registerPeopleRoutes(route: Route): void {
  route('/venue-groups/:venue_group_id/users', {
    POST: (ctx) => {
      const group = groupOr404(ctx);
      mayManageGroupUsers(ctx, group._id);
      const errors: FieldError[] = [];
      const email = str(ctx.params, 'email');
      if (!email) errors.push({ code: 'missing_email', message: 'email is required', fields: ['email'] });
      else if (!EMAIL_RE.test(email) || email.length > 254)
        errors.push({ code: 'invalid_email', message: 'email is not a valid address', fields: ['email'] });
      else if (
        [...ctx.store.groupUsers.values()].some(
          (u) => u.venue_group === group._id && u.email.toLowerCase() === email.toLowerCase(),
        )
      ) {
        errors.push({
          code: 'user_exists',
          message: 'A user with this email already belongs to the venue group',
          fields: ['email'],
        });
      }
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
    },
    GET: (ctx) => {
      const group = groupOr404(ctx);
      mayManageGroupUsers(ctx, group._id);
      return { users: [...ctx.store.groupUsers.values()].filter((u) => u.venue_group === group._id) };
    },
  });
  const groupUser = (ctx: Ctx) => {
    const group = groupOr404(ctx);
    mayManageGroupUsers(ctx, group._id);
    const user = ctx.store.groupUsers.get(ctx.path('user_id'));
    if (!user || user.venue_group !== group._id)
      throw new ApiError(404, `User ${ctx.path('user_id')} not found in this venue group`);
    return { group, user };
  };
  route('/venue-groups/:venue_group_id/users/:user_id', {
    POST: (ctx) => {
      const { group, user } = groupUser(ctx);
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
    },
    DELETE: (ctx) => {
      const { user } = groupUser(ctx);
      ctx.store.groupUsers.delete(user._id);
      return { deleted: true, _id: user._id };
    },
  });

  // §4.11 guests and tickets of one occurrence of a ticketed event.
  route('/events/:event_id/guests', {
    GET: (ctx) => {
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
    },
  });

  // §4.12 customer users.
  const searchUsers = (ctx: Ctx) => {
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
    let sortKey = 'last_name';
    let desc = false;
    const sortRaw = str(p, 'sort');
    if (sortRaw !== undefined) {
      if (csv)
        errors.push({
          code: 'sort_unsupported',
          message: 'Sorting is not supported with output=csv',
          fields: ['sort'],
        });
      const m = /^(-)?([a-z_]+?)(?:_(asc|desc))?$/.exec(sortRaw);
      const key =
        m && USER_FIELDS.includes(m[2]!)
          ? m[2]!
          : m && USER_FIELDS.includes(`${m[2]}_${m[3]}`)
            ? `${m[2]}_${m[3]}`
            : undefined;
      if (!m || !key)
        errors.push({
          code: 'invalid_sort',
          message: `sort must be a user field (optionally -field or field_desc): ${USER_FIELDS.join(', ')}`,
          fields: ['sort'],
        });
      else {
        sortKey = key;
        desc = m[1] === '-' || (m[3] === 'desc' && key === m[2]);
      }
    }
    throwIfErrors(errors, 'The users search parameters are not valid');
    const term = (str(p, 'search') ?? '').toLowerCase();
    const digits = term.replace(/[^\d]/g, '');
    const matched = [...ctx.store.users.values()].filter(
      (u) =>
        customerVisible(ctx, u, perm) &&
        (!term ||
          u.email.toLowerCase().includes(term) ||
          u.last_name.toLowerCase().includes(term) ||
          (digits.length >= 4 && u.phone.replace(/[^\d]/g, '').includes(digits))),
    );
    const page = csv
      ? matched.slice(start!, start! + limit!)
      : topK(matched, start! + limit!, (a, b) => {
          const av = String((a as unknown as Record<string, unknown>)[sortKey] ?? ''),
            bv = String((b as unknown as Record<string, unknown>)[sortKey] ?? '');
          return (av < bv ? -1 : av > bv ? 1 : a._id < b._id ? -1 : 1) * (desc ? -1 : 1);
        }).slice(start!, start! + limit!);
    if (csv) {
      const cols = fields?.length ? ['_id', ...fields.filter((f) => f !== '_id')] : USER_FIELDS;
      const rows = [
        cols.join(','),
        ...page.map((u) => cols.map((c) => csvCell((u as unknown as Record<string, unknown>)[c])).join(',')),
      ];
      return new Response(rows.join('\r\n') + '\r\n', {
        status: 200,
        headers: {
          'content-type': 'text/csv; charset=utf-8',
          'content-disposition': 'attachment; filename="users.csv"',
        },
      });
    }
    return { users: page.map((u) => projectUser(u, fields)), start: start!, numFound: matched.length };
  };
  route('/users', { GET: searchUsers });
  route('/users/', { GET: searchUsers });

  route('/users/:user_id', {
    GET: (ctx) => {
      const fields = ctx.params.fields === undefined ? undefined : list(ctx.params.fields);
      const bad = (fields ?? []).filter((f) => !USER_FIELDS.includes(f));
      if (bad.length) throw badField('fields', 'invalid_fields', `Unknown user fields: ${bad.join(', ')}`);
      return projectUser(userOr404(ctx), fields);
    },
    POST: (ctx) => {
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
      for (const key of ['first_name', 'last_name', 'username', 'gender', 'company', 'phone'] as const) {
        const v = ctx.params[key];
        if (v === undefined) continue;
        if (typeof v !== 'string' || v.length > 200 || ((key === 'first_name' || key === 'last_name') && !v.trim())) {
          errors.push({
            code: `invalid_${key}`,
            message: `${key} must be non-empty text of at most 200 characters`,
            fields: [key],
          });
        } else patch[key] = v.trim();
      }
      const email = ctx.params.email;
      if (email !== undefined) {
        if (typeof email !== 'string' || !EMAIL_RE.test(email))
          errors.push({ code: 'invalid_email', message: 'email is not a valid address', fields: ['email'] });
        else patch.email = email;
      }
      const dob = ctx.params.dob;
      if (dob !== undefined) {
        if (!isDate(dob) || (dob as string) > londonDate(ctx.now))
          errors.push({ code: 'invalid_dob', message: 'dob must be a past date YYYY-MM-DD', fields: ['dob'] });
        else patch.dob = dob;
      }
      if (ctx.params.marketing_permission !== undefined) {
        const b = bool(ctx.params.marketing_permission);
        if (b === undefined)
          errors.push({
            code: 'invalid_marketing_permission',
            message: 'marketing_permission must be true or false',
            fields: ['marketing_permission'],
          });
        else patch.marketing_permission = b;
      }
      throwIfErrors(errors);
      Object.assign(u, patch, { last_updated: londonTimestamp(ctx.now) });
      return projectUser(u, undefined);
    },
  });

  route('/users/:user_id/marketing-preferences', {
    POST: (ctx) => {
      const u = userOr404(ctx);
      const raw = ctx.params.marketing_preferences;
      const errors: FieldError[] = [];
      if (!Array.isArray(raw) || !raw.length)
        throw badField(
          'marketing_preferences',
          'invalid_marketing_preferences',
          'marketing_preferences must be a non-empty array of { id, opt_in }',
        );
      const known = new Set<string>();
      for (const g of ctx.store.groups.values()) for (const m of g.marketing_preferences ?? []) known.add(m.id);
      for (const v of ctx.store.venues.values()) for (const m of v.marketing_preferences ?? []) known.add(m.id);
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
    },
  });
}
