/**
 * The venue profile: what the venue's manager keeps in the studio and guests are told, as opposed
 * to the registry's settings, which are the operator's. The venue's phone, email and address
 * (the widget's way out for a party no type takes, the booking page, the manage pages); whether
 * guests may cancel online and until how many hours before; and the default look (theme, colours,
 * booking type, language) that the studio, the booking page, the QR code and the plugin start from.
 *
 * Kept in the venue's records (state/records.ts, table `profiles`, one JSON field per venue), so a
 * change shows on every instance at once and survives restarts; seeded from a file
 * (`VENUE_BOOKING_PROFILES_FILE`) for operators who keep configuration in code; every change logged.
 * All of it is meant for guests (api/profile.ts serves it to the widget): nothing private is kept.
 */
import type { Logger } from '../core/log.js';
import type { Records } from './records.js';
import { isEmail, isPhone, LOCALES, textProblem } from '../../src/api/rules.js';

/** The records table of the profiles: one field per venue id, its profile as JSON. */
export const PROFILES_TABLE = 'profiles';

/** The colours a profile may set: the names the studio and the widget's custom properties use. */
export const PROFILE_COLOURS = ['accent', 'accent-text', 'background', 'text'] as const;

/** A venue's profile, as stored and as the widget reads it. */
export interface VenueProfile {
  phone: string | null;
  email: string | null;
  address: string | null;
  cancellation: {
    /** Whether guests may cancel online (the manage pages). */
    online: boolean;
    /** Until how many hours before the booking; null: until it starts. */
    hours_before: number | null;
  };
  look: {
    theme: 'light' | 'dark' | 'auto' | null;
    colours: Partial<Record<(typeof PROFILE_COLOURS)[number], string>>;
    booking_type: string | null;
    locale: string | null;
  };
}

/**
 * A profile with nothing set: what a venue has before its manager saves one. Guests may cancel
 * online until 24 hours before (the manage pages' rules, and what the studio's form starts from).
 */
export const EMPTY_PROFILE: VenueProfile = {
  phone: null,
  email: null,
  address: null,
  cancellation: { online: true, hours_before: 24 },
  look: { theme: null, colours: {}, booking_type: null, locale: null },
};

/** Longest address kept (several lines of a postal address). */
const ADDRESS_MAX = 300;
/** The furthest ahead a cancellation deadline may be set: 30 days. */
const HOURS_BEFORE_MAX = 720;
const COLOUR = /^#[0-9a-f]{6}$/i;
const TYPE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The problems of a proposed profile, by field, in plain words; none when it may be kept. */
export type ProfileProblems = Partial<Record<string, string>>;

/** What `text` makes of a value that is not text: it fails every check below. */
const NOT_TEXT = '\u0000';

/** A text field: trimmed, null when empty or absent, `NOT_TEXT` when of another kind. */
const text = (value: unknown): string | null =>
  typeof value === 'string' ? value.trim() || null : value === null || value === undefined ? null : NOT_TEXT;

/**
 * Checks an untrusted profile (a studio form, a seed file, an API body): the profile, or the
 * problems found. Unknown fields are ignored; a wrong one is named, never silently dropped.
 */
export function checkProfile(input: unknown): { profile: VenueProfile } | { problems: ProfileProblems } {
  const given = (input && typeof input === 'object' ? input : {}) as Record<string, unknown>;
  const cancellation = (given.cancellation ?? {}) as Record<string, unknown>;
  const look = (given.look ?? {}) as Record<string, unknown>;
  const problems: ProfileProblems = {};
  const phone = text(given.phone);
  if (phone !== null && !isPhone(phone)) problems.phone = 'Write the phone number with digits, spaces and + only.';
  const email = text(given.email);
  if (email !== null && !isEmail(email)) problems.email = 'Write an email address such as bookings@example.com.';
  const address = text(given.address);
  if (address !== null && textProblem(address, ADDRESS_MAX, true))
    problems.address = `Write the address in at most ${ADDRESS_MAX} characters.`;
  const online = cancellation.online === true;
  const hours = cancellation.hours_before ?? null;
  if (hours !== null && !(Number.isInteger(hours) && (hours as number) >= 0 && (hours as number) <= HOURS_BEFORE_MAX))
    problems.hours_before = `Choose a whole number of hours from 0 to ${HOURS_BEFORE_MAX}.`;
  const theme = look.theme ?? null;
  if (theme !== null && theme !== 'light' && theme !== 'dark' && theme !== 'auto')
    problems.theme = 'Choose light, dark or auto.';
  const colours: VenueProfile['look']['colours'] = {};
  const givenColours = (look.colours ?? {}) as Record<string, unknown>;
  for (const name of PROFILE_COLOURS) {
    const value = givenColours[name];
    if (value === undefined || value === null || value === '') continue;
    if (typeof value === 'string' && COLOUR.test(value)) colours[name] = value.toLowerCase();
    else problems[`colour-${name}`] = 'Choose a colour such as #7a1f2b.';
  }
  const type = text(look.booking_type);
  if (type !== null && !TYPE_ID.test(type)) problems.booking_type = 'Choose one of the venue’s booking types.';
  const locale = text(look.locale);
  if (locale !== null && !Object.hasOwn(LOCALES, locale)) problems.locale = 'Choose one of the languages offered.';
  if (Object.keys(problems).length) return { problems };
  return {
    profile: {
      phone,
      email,
      address,
      cancellation: { online, hours_before: hours as number | null },
      look: { theme: theme as VenueProfile['look']['theme'], colours, booking_type: type, locale },
    },
  };
}

/** The venues' profiles in the venue's records. */
export class VenueProfiles {
  constructor(
    private readonly records: Records,
    private readonly logger: Logger,
  ) {}

  /** The venue's profile, or null when its manager has saved none. */
  async get(venue: string): Promise<VenueProfile | null> {
    const kept = (await this.records.all(PROFILES_TABLE)).get(venue);
    if (kept === undefined) return null;
    const checked = checkProfile(JSON.parse(kept));
    return 'profile' in checked ? checked.profile : null;
  }

  /** Keeps `profile` for `venue` (checked already); `by` says who, for the log. */
  async put(venue: string, profile: VenueProfile, by: 'studio' | 'seed file'): Promise<void> {
    await this.records.set(PROFILES_TABLE, venue, JSON.stringify(profile));
    // Which fields are set, not their values: the log is no place for a venue's contact details.
    const set = Object.entries({ phone: profile.phone, email: profile.email, address: profile.address })
      .filter(([, value]) => value !== null)
      .map(([name]) => name);
    this.logger.log({ level: 'info', msg: 'venue profile saved', venue, by, set: set.join(',') || 'none' });
  }

  /**
   * Seeds the venues of `seed` (venue id → profile) that have no profile yet: a file that keeps the
   * operator's configuration in code starts a venue off, and the studio's later changes stand.
   * Throws with every problem named, so a wrong file stops the start.
   */
  async seed(seed: Record<string, unknown>, allowed: (venue: string) => boolean): Promise<number> {
    const checked = Object.entries(seed).map(([venue, input]) => {
      if (!allowed(venue)) throw new Error(`the profiles file names venue ${venue}, which this proxy does not serve`);
      const result = checkProfile(input);
      if ('problems' in result)
        throw new Error(`the profiles file's venue ${venue}: ${Object.values(result.problems).join(' ')}`);
      return [venue, result.profile] as const;
    });
    const kept = await this.records.all(PROFILES_TABLE);
    let seeded = 0;
    for (const [venue, profile] of checked)
      if (!kept.has(venue)) {
        await this.put(venue, profile, 'seed file');
        seeded++;
      }
    return seeded;
  }
}
