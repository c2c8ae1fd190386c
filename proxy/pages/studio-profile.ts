/**
 * The studio's "Your venue" part: for each venue chosen (each venue of a chosen group), its
 * profile (state/venue-profiles.ts) as a form in plain words: the phone, email and address guests
 * are given, whether they may cancel online and until when, and the studio's current look kept as
 * the venue's defaults. Saved by `POST /embed/profile` (`studioProfileSave`) behind the studio's
 * own operator access, from the studio's own page only (pages/operator.ts reads the form with
 * `operatorForm` and hands it over), then back to the studio with its query and "Saved"
 * (Post/Redirect/Get); a form with problems comes back with what the manager typed and each
 * problem beside its field. Every save is logged by `VenueProfiles.put`.
 */
import type { ProxyContext } from '../context.js';
import { ProxyError } from '../core/envelope.js';
import { PATHS, relativePath } from '../paths.js';
import { envName } from '../settings/read.js';
import { checkProfile, EMPTY_PROFILE, type ProfileProblems, type VenueProfile } from '../state/venue-profiles.js';
import { escapeHtml, pageResponse } from './page.js';
import type { WidgetSettings } from './snippet.js';
import { londonToday, studioChoices, venueName } from './studio-form.js';
import { venueInfo, venuesAndGroups, type GroupInfo, type VenueInfo } from './venue-data.js';
import { lookQuery, profilesOf, saysLook, withLook } from './venue-profile.js';

/** A path of the proxy as seen from `/embed/profile` (a folder down from the root), where the form comes back. */
const fromProfile = (path: string) => `../${relativePath(path)}`;

/** The query key of the studio's address after a save: the venue whose profile was saved. */
const SAVED_KEY = 'saved';

/** What the form holds, as typed: text, so a wrong value comes back as the manager wrote it. */
interface ProfileFields {
  phone: string;
  email: string;
  address: string;
  cancelOnline: boolean;
  hoursBefore: string;
  /** "Use these as your defaults" ticked: unticked on a saved profile, kept as it was on a form shown again. */
  useLook: boolean;
}

/** The form's fields of a saved profile. */
function fieldsOf(profile: VenueProfile): ProfileFields {
  return {
    phone: profile.phone ?? '',
    email: profile.email ?? '',
    address: profile.address ?? '',
    cancelOnline: profile.cancellation.online,
    hoursBefore: profile.cancellation.hours_before === null ? '' : String(profile.cancellation.hours_before),
    useLook: false,
  };
}

/** The venues whose profiles the studio shows for `choices`: the group's, else those chosen. */
export function profileVenues(
  choices: Pick<WidgetSettings, 'venues' | 'group'>,
  groups: readonly GroupInfo[],
): string[] {
  if (!choices.group) return choices.venues;
  return groups.find((group) => group.id === choices.group)?.venues.map((venue) => venue.id) ?? [];
}

/** Where the venue's records are kept, when that is this process's memory: what the manager should know. */
function keptNote(ctx: ProxyContext): string {
  if (ctx.records.kind !== 'memory') return '';
  return `<p class="note">Changes here last until the booking service restarts.</p><details><summary>For your web person</summary><p>To keep them, set <code>${envName('dataFile')}</code> (a file beside one process) or <code>${envName('redisUrl')}</code> (shared by several), then restart the booking service.</p></details>`;
}

/** One venue's form; `studio` is the studio's query, kept for the way back. */
function profileForm(
  venue: VenueInfo,
  fields: ProfileFields,
  problems: ProfileProblems,
  studio: string,
  action: string,
  saved: boolean,
): string {
  const id = (name: string) => `profile-${venue.id}-${name}`;
  const problem = (key: string, name: string) =>
    problems[key] ? `<p class="problem" id="${escapeHtml(id(name))}-problem">${escapeHtml(problems[key])}</p>` : '';
  const described = (key: string, name: string, hint?: string) => {
    const ids = [hint ? id(hint) : '', problems[key] ? `${id(name)}-problem` : ''].filter(Boolean);
    return `${ids.length ? ` aria-describedby="${escapeHtml(ids.join(' '))}"` : ''}${problems[key] ? ' aria-invalid="true"' : ''}`;
  };
  const input = (key: string, name: string, label: string, type: string, value: string, extra = '') =>
    `<label for="${escapeHtml(id(name))}">${label}</label><input type="${type}" id="${escapeHtml(id(name))}" name="${name}" value="${escapeHtml(value)}"${described(key, name)}${extra}>${problem(key, name)}`;
  const lookProblems = Object.entries(problems)
    .filter(([key]) => !['phone', 'email', 'address', 'hours_before'].includes(key))
    .map(([, text]) => `<p class="problem">${escapeHtml(text!)}</p>`)
    .join('');
  return `<form class="venue-profile" id="${escapeHtml(id('form'))}" method="post" action="${escapeHtml(action)}" aria-labelledby="${escapeHtml(id('title'))}">
<h3 id="${escapeHtml(id('title'))}">${escapeHtml(venueName(venue))}</h3>
${saved ? '<p class="allowed" role="status">Saved.</p>' : ''}
<input type="hidden" name="venue" value="${escapeHtml(venue.id)}"><input type="hidden" name="studio" value="${escapeHtml(studio)}">
<fieldset><legend>How guests reach you</legend><p class="note">Shown on your booking page, and to guests the widget cannot help (a party too large to book online).</p>
${input('phone', 'phone', 'Phone number', 'tel', fields.phone, ' autocomplete="off" placeholder="+44 20 7946 0000"')}
${input('email', 'email', 'Email address', 'email', fields.email, ' autocomplete="off" placeholder="bookings@example.com"')}
<label for="${escapeHtml(id('address'))}">Address</label><textarea id="${escapeHtml(id('address'))}" name="address" rows="3"${described('address', 'address')}>${escapeHtml(fields.address)}</textarea>${problem('address', 'address')}
</fieldset>
<fieldset><legend>Cancelling</legend>
<label><input type="checkbox" name="cancel-online"${fields.cancelOnline ? ' checked' : ''}> Guests may cancel online</label>
<label for="${escapeHtml(id('hours-before'))}">until this many hours before the booking</label><input type="number" id="${escapeHtml(id('hours-before'))}" name="hours-before" min="0" max="720" inputmode="numeric" value="${escapeHtml(fields.hoursBefore)}"${described('hours_before', 'hours-before', 'hours-note')}>
<p class="note" id="${escapeHtml(id('hours-note'))}">Leave it empty to let guests cancel until the booking starts.</p>${problem('hours_before', 'hours-before')}
</fieldset>
<label><input type="checkbox" name="use-look"${fields.useLook ? ' checked' : ''}> Use these as your defaults: the look chosen in the studio (theme, colours, booking type and language). The studio and your booking page start from them.</label>${lookProblems}
<p><button type="submit">Save ${escapeHtml(venueName(venue))}</button></p>
</form>`;
}

/**
 * The "Your venue" part of the studio for `venues` (their saved profiles), `saved` the venue just
 * saved. `data-venues` lets the studio's script redraw it only when the venues chosen change, so
 * what is typed here survives a change of colour above.
 */
export async function profileSection(
  ctx: ProxyContext,
  venues: readonly VenueInfo[],
  query: URLSearchParams,
): Promise<string> {
  const studio = new URLSearchParams(query);
  const saved = studio.get(SAVED_KEY);
  studio.delete(SAVED_KEY);
  const forms = await Promise.all(
    venues.map(async (venue) =>
      profileForm(
        venue,
        fieldsOf((await ctx.profiles.get(venue.id)) ?? EMPTY_PROFILE),
        {},
        studio.toString(),
        relativePath(PATHS.studioProfile),
        saved === venue.id,
      ),
    ),
  );
  return `<div id="venue-profiles" data-venues="${escapeHtml(venues.map((venue) => venue.id).join(','))}"><p>What guests are told about your venue, and the look everything starts from.</p>${keptNote(ctx)}${forms.join('') || '<p class="note">Choose a venue above.</p>'}</div>`;
}

/** A whole number from the form, or the text as typed (which `checkProfile` names as a problem). */
const hoursOf = (value: string) => (value === '' ? null : /^\d{1,4}$/.test(value) ? Number(value) : value);

/** The look of the studio's query, as a profile keeps it: the studio's own checks applied. */
async function lookOf(ctx: ProxyContext, studio: URLSearchParams): Promise<VenueProfile['look']> {
  const { choices } = studioChoices(studio, await venuesAndGroups(ctx), londonToday(ctx.config.now()));
  return { theme: choices.theme, colours: choices.colours, booking_type: choices.type, locale: choices.locale };
}

/**
 * `POST /embed/profile`: saves one venue's profile from the studio's form, then sends the manager
 * back to the studio with its query (303, so a reload does not post again); a form with problems,
 * or one the records could not keep, is shown again with what was typed.
 */
export async function studioProfileSave(ctx: ProxyContext, form: URLSearchParams): Promise<Response> {
  const id = form.get('venue') ?? '';
  if (!(await ctx.venueAllowed(id))) throw new ProxyError(404, 'This venue is not served here');
  const studio = new URLSearchParams(form.get('studio') ?? '');
  studio.delete(SAVED_KEY);
  const fields: ProfileFields = {
    phone: form.get('phone') ?? '',
    email: form.get('email') ?? '',
    address: form.get('address') ?? '',
    cancelOnline: form.get('cancel-online') === 'on',
    hoursBefore: (form.get('hours-before') ?? '').trim(),
    useLook: form.get('use-look') === 'on',
  };
  const kept = (await ctx.profiles.get(id)) ?? EMPTY_PROFILE;
  const checked = checkProfile({
    phone: fields.phone,
    email: fields.email,
    address: fields.address,
    cancellation: { online: fields.cancelOnline, hours_before: hoursOf(fields.hoursBefore) },
    look: fields.useLook ? await lookOf(ctx, studio) : kept.look,
  });
  const again = async (problems: ProfileProblems, status: number, why: string) => {
    const venue = await venueInfo(ctx, id);
    const back = `${fromProfile(PATHS.studio)}?${studio.toString()}`;
    const body = `<header><h1>Your venue: not saved yet</h1><p class="lead" role="alert">${escapeHtml(why)}</p></header><main>${profileForm(venue, fields, problems, studio.toString(), fromProfile(PATHS.studioProfile), false)}<p><a href="${escapeHtml(back)}">Back to the studio without saving</a></p></main>`;
    return pageResponse(body, {
      title: 'Your venue: not saved yet',
      description: 'Check the details of your venue and save them again.',
      status,
      stylesheet: fromProfile(PATHS.pagesCss),
    });
  };
  if ('problems' in checked) return again(checked.problems, 422, 'Some details need a change: see beside each field.');
  try {
    await ctx.profiles.put(id, checked.profile, 'studio');
  } catch {
    return again(
      {},
      503,
      'The booking service could not keep your details just now. Nothing is lost here: try again in a minute.',
    );
  }
  studio.set(SAVED_KEY, id);
  return new Response(null, {
    status: 303,
    headers: {
      location: `${fromProfile(PATHS.studio)}?${studio.toString()}#profile-${encodeURIComponent(id)}-form`,
      'cache-control': 'no-store',
    },
  });
}

/**
 * The studio's query as its form starts: `query`, or, when it says nothing of the look (the studio
 * opened afresh, not yet redrawn by its form), with the look saved for the venues it chooses.
 */
export async function studioQuery(
  ctx: ProxyContext,
  query: URLSearchParams,
  offer: { venues: VenueInfo[]; groups: GroupInfo[] },
  today: string,
): Promise<URLSearchParams> {
  if (saysLook(query)) return query;
  const { choices } = studioChoices(query, offer, today);
  return withLook(query, lookQuery(await profilesOf(ctx, profileVenues(choices, offer.groups))));
}

/** The venues of `ids` as the studio knows them (a group's venue outside the configured ones by its listed name). */
export function venuesNamed(ids: readonly string[], offer: { venues: VenueInfo[]; groups: GroupInfo[] }): VenueInfo[] {
  const listed = offer.groups.flatMap((group) => group.venues);
  return ids.map(
    (id) =>
      offer.venues.find((venue) => venue.id === id) ?? {
        id,
        title: listed.find((venue) => venue.id === id)?.title ?? null,
        types: [],
      },
  );
}
