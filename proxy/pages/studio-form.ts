/**
 * The embed studio's form: what its query may choose, checked against what the proxy allows and
 * what the venues take (their booking types and party sizes, read from the venue data), and the
 * form itself in plain words. A value that is not allowed is left out and named in `problems`, so
 * a venue cannot make a widget that tells its guests that a choice is unknown.
 */
import { isCalendarDate, isPhone, isTime, LOCALES, PARTY_SIZE, STEP_ORDERS } from '../../src/api/rules.js';
import { escapeHtml } from './page.js';
import { COLOUR_PROPERTIES, type ColourName, type WidgetSettings } from './snippet.js';
import type { BookingType, GroupInfo, VenueInfo } from './venue-data.js';

/** What the studio offers: the proxy's own venues and groups, with what could be read of them. */
export interface StudioOffer {
  venues: VenueInfo[];
  groups: GroupInfo[];
}

/** The colour pickers, in plain words, with the widget's light default as the picker's start. */
export const COLOURS: Record<ColourName, { label: string; start: string }> = {
  accent: { label: 'Main colour (the booking button and what the guest has chosen)', start: '#1f5f8b' },
  'accent-text': { label: 'Text on the main colour', start: '#ffffff' },
  background: { label: 'Background', start: '#ffffff' },
  text: { label: 'Text', start: '#1b1f23' },
};

const COLOUR_RE = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

/** A venue's name for people, or a plain stand-in while its record cannot be read. */
export const venueName = (venue: VenueInfo) => venue.title ?? 'A venue (its name cannot be read right now)';

/** A group's name for people: its venues' names. */
export function groupName(group: GroupInfo): string {
  const names = group.venues.flatMap((venue) => (venue.title ? [venue.title] : []));
  if (!names.length) return 'A group of venues (its list cannot be read right now)';
  return `All of: ${names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names[0]}`;
}

/** The booking types the chosen venues offer, each once by id, named with its venue when several are chosen. */
export function typesOf(
  offer: StudioOffer,
  venues: readonly string[],
  group: string | null,
): (BookingType & { label: string })[] {
  const ids = group ? (offer.groups.find((item) => item.id === group)?.venues.map((venue) => venue.id) ?? []) : venues;
  const chosen = offer.venues.filter((venue) => ids.includes(venue.id));
  const seen = new Set<string>();
  return chosen.flatMap((venue) =>
    venue.types
      .filter((type) => !seen.has(type.id) && seen.add(type.id))
      .map((type) => ({ ...type, label: chosen.length > 1 ? `${type.name} (${venueName(venue)})` : type.name })),
  );
}

/** The party sizes a prefill may take: the chosen type's, else any the chosen venues' types take. */
export function partyRange(types: readonly BookingType[], type: string | null): { min: number; max: number } {
  const relevant = type ? types.filter((item) => item.id === type) : types;
  if (!relevant.length) return { min: PARTY_SIZE.min, max: PARTY_SIZE.max };
  return {
    min: Math.min(...relevant.map((item) => item.minPeople)),
    max: Math.max(...relevant.map((item) => item.maxPeople)),
  };
}

/** Today's date in London, `YYYY-MM-DD`. */
export const londonToday = (now: number) =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Europe/London',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);

/** The form's choices from the query; what is not allowed is left out, and named in `problems`. */
export function studioChoices(
  query: URLSearchParams,
  offer: StudioOffer,
  today: string,
): { choices: WidgetSettings; problems: string[] } {
  const problems: string[] = [];
  const one = (name: string) => query.get(name)?.trim() ?? '';
  const pick = <T extends string>(name: string, allowed: readonly T[], fallback: T, what: string): T => {
    const value = one(name);
    if (!value) return fallback;
    if ((allowed as readonly string[]).includes(value)) return value as T;
    problems.push(`${what}: not one of the choices`);
    return fallback;
  };
  const venueIds = offer.venues.map((venue) => venue.id);
  const asked = query.getAll('venue').flatMap((value) => value.split(','));
  const venues = asked.filter((venue) => venueIds.includes(venue));
  if (asked.length > venues.length) problems.push('Venue: only the venues this service books for');
  const group = one('group')
    ? pick(
        'group',
        offer.groups.map((item) => item.id),
        '',
        'Group',
      ) || null
    : null;
  const colours: WidgetSettings['colours'] = {};
  for (const name of Object.keys(COLOUR_PROPERTIES) as ColourName[]) {
    const colour = one(name);
    if (!colour) continue;
    if (COLOUR_RE.test(colour)) colours[name] = colour.toLowerCase();
    else problems.push(`${COLOURS[name].label}: a colour like #1f5f8b`);
  }
  const chosenVenues = venues.length || group ? venues : venueIds.slice(0, 1);
  const types = typesOf(offer, chosenVenues, group);
  const type = one('type')
    ? pick(
        'type',
        types.map((item) => item.id),
        '',
        'Booking type',
      ) || null
    : null;
  const range = partyRange(types, type);
  const people = one('num-people');
  let numPeople: number | null = null;
  if (people) {
    numPeople = /^\d{1,4}$/.test(people) ? Number(people) : NaN;
    if (!(numPeople >= range.min && numPeople <= range.max)) {
      problems.push(`Party size: from ${range.min} to ${range.max} for this choice`);
      numPeople = null;
    }
  }
  let date: string | null = one('date') || null;
  if (date && !(isCalendarDate(date) && date >= today)) {
    problems.push('Day: a date from today on');
    date = null;
  }
  let time: string | null = one('time') || null;
  if (time && !isTime(time)) {
    problems.push('Time: a time like 19:30');
    time = null;
  }
  let phone: string | null = one('phone') || null;
  if (phone && !isPhone(phone)) {
    problems.push('Your phone number: digits, like +44 20 7946 0000');
    phone = null;
  }
  return {
    choices: {
      venues: chosenVenues,
      group,
      mode: pick('mode', ['inline', 'popup'] as const, 'inline', 'Shown as'),
      theme: pick('theme', ['light', 'dark', 'auto'] as const, 'light', 'Theme'),
      locale: pick('locale', Object.keys(LOCALES), 'en-GB', 'Language'),
      steps: pick('steps', Object.keys(STEP_ORDERS), '', 'Order of the steps'),
      colours,
      type,
      date,
      time,
      numPeople,
      link: linkOf(one('link'), problems),
      phone,
    },
    problems,
  };
}

/** The venue's own booking page: an http(s) address, else null (and a problem). */
function linkOf(value: string, problems: string[]): string | null {
  if (!value) return null;
  let url: URL | null = null;
  try {
    url = new URL(value);
  } catch {
    // Reported below.
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || value.length > 500) {
    problems.push('Your booking page: an address starting with https://');
    return null;
  }
  return url.href;
}

const checked = (on: boolean) => (on ? ' checked' : '');
const selected = (on: boolean) => (on ? ' selected' : '');
const options = (values: Record<string, string>, current: string) =>
  Object.entries(values)
    .map(
      ([value, label]) =>
        `<option value="${escapeHtml(value)}"${selected(value === current)}>${escapeHtml(label)}</option>`,
    )
    .join('');
const radios = (name: string, values: Record<string, string>, current: string) =>
  Object.entries(values)
    .map(
      ([value, label]) =>
        `<label class="choice"><input type="radio" name="${name}" value="${escapeHtml(value)}"${checked(value === current)}> ${escapeHtml(label)}</label>`,
    )
    .join('');

/** The venue part: venues by name, or a group. */
function venuePart(choices: WidgetSettings, offer: StudioOffer): string {
  const venues = offer.venues
    .map(
      (venue) =>
        `<label><input type="checkbox" name="venue" value="${escapeHtml(venue.id)}"${checked(!choices.group && choices.venues.includes(venue.id))}> ${escapeHtml(venueName(venue))}</label>`,
    )
    .join('');
  const groups = offer.groups.length
    ? `<label>Or every venue of a group <select name="group"><option value="">No group</option>${offer.groups
        .map(
          (group) =>
            `<option value="${escapeHtml(group.id)}"${selected(group.id === choices.group)}>${escapeHtml(groupName(group))}</option>`,
        )
        .join('')}</select></label>`
    : '';
  return `<fieldset><legend>Venue</legend><p class="note">Tick several to let guests choose between them.</p>${venues}${groups}</fieldset>`;
}

/** The colour pickers: each off (the widget's own colour) until ticked. */
function colourPart(choices: WidgetSettings): string {
  return (Object.keys(COLOURS) as ColourName[])
    .map((name) => {
      const own = choices.colours[name];
      return `<div class="colour"><label><input type="checkbox" data-colour="${name}"${checked(!!own)}> ${escapeHtml(COLOURS[name].label)}</label> <label class="visually-hidden" for="colour-${name}">${escapeHtml(COLOURS[name].label)}: the colour</label><input type="color" id="colour-${name}" name="${name}" value="${escapeHtml(own ?? COLOURS[name].start)}"${own ? '' : ' disabled'}></div>`;
    })
    .join('');
}

/**
 * The prefill part, which depends on the chosen venues: the booking types they offer (a select,
 * never free text), party sizes within what they take, days from today. Redrawn by the studio's
 * script when the venue changes.
 */
export function prefillPart(choices: WidgetSettings, offer: StudioOffer, today: string): string {
  const types = typesOf(offer, choices.venues, choices.group);
  const range = partyRange(types, choices.type);
  const typeOptions = Object.fromEntries([['', 'Let the guest choose'], ...types.map((type) => [type.id, type.label])]);
  return `<fieldset id="prefill"><legend>Start with (optional)</legend>
<label>Booking type <select name="type">${options(typeOptions, choices.type ?? '')}</select></label>
<label>Day <input type="date" name="date" min="${today}" value="${escapeHtml(choices.date ?? '')}"></label>
<label>Time <input type="time" name="time" value="${escapeHtml(choices.time ?? '')}"></label>
<label>Party size <input type="number" name="num-people" min="${range.min}" max="${range.max}" value="${choices.numPeople ?? ''}"></label>
</fieldset>`;
}

/** The form. It works without a script (the button reloads the page); with it, every change redraws at once. */
export function formOf(choices: WidgetSettings, offer: StudioOffer, today: string, contrast: string): string {
  const text = (name: string, label: string, value: string | null, type: string, extra = '') =>
    `<label>${label} <input type="${type}" name="${name}" value="${escapeHtml(value ?? '')}"${extra}></label>`;
  return `<form id="studio-form" action="embed" method="get">
${venuePart(choices, offer)}
<fieldset><legend>Look</legend>
<p>Shown as: ${radios('mode', { inline: 'On the page', popup: 'A button that opens it' }, choices.mode)}</p>
<p>Theme: ${radios('theme', { light: 'Light', dark: 'Dark', auto: 'Follows the visitor’s setting' }, choices.theme)}</p>
<p class="note">Tick a colour to choose your own; untouched, the widget uses its own.</p>
${colourPart(choices)}
<div id="contrast" role="status">${contrast}</div>
</fieldset>
<fieldset><legend>Language and steps</legend>
<label>Language <select name="locale">${options(LOCALES, choices.locale)}</select></label>
<label>Order of the steps <select name="steps">${options(STEP_ORDERS, choices.steps)}</select></label>
</fieldset>
${prefillPart(choices, offer, today)}
<fieldset><legend>Where the widget cannot run</legend><p class="note">Shown to visitors whose browser cannot run it, and under an error. Without a page of your own it points to your booking page on this service.</p>
${text('link', 'Your own booking page', choices.link, 'url', ' placeholder="https://…" size="40"')}
${text('phone', 'Your phone number', choices.phone, 'tel', ' placeholder="+44 20 7946 0000"')}
</fieldset>
<p class="no-script-only"><button type="submit">Show my choices</button></p>
</form>`;
}
