/**
 * The booking's reads, as one reactive controller of `@lit/task` Tasks: the picker's venues, the
 * availability answer the choices call for, the venue's offers, each type's party sizes, the
 * marketing preferences, the venue's own record (its name), the proxy's return bridge and the
 * later steps' code (an on-demand chunk), each through its typed call of the API client. Each
 * Task takes its inputs through `args`, from the element's attributes and booking state for this
 * update (`BookingInputs`), and never reads the element inside `task`.
 */
import { shallowArrayEquals, Task, TaskStatus } from '@lit/task';
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import {
  createApiClient,
  readAvailability,
  readBookingRules,
  readOffers,
  readVenue,
  readVenueGroup,
  type ApiClient,
} from '../api/client.js';
import { normalizeAvailability, type Availability, type Choices } from '../api/normalize.js';
import type { WireMarketingPreference, WireOffer, WireVenue } from '../api/types.js';
import {
  needsRedirect,
  nextStep,
  partnerOffers,
  planRead,
  readKey,
  parseSteps,
  type AvailabilityRead,
  type HeldAvailability,
  type Step,
  validSuggestions,
} from '../state/booking-flow.js';
import type { PartyHelp } from '../state/party-help.js';
import type { BookingState } from '../state/booking-state.js';
import { sizeCondition, type PartyRange } from '../venue/offers.js';
import { importPinned } from '../api/pinned-import.js';
import type { ReadState, ViewState } from '../state/view.js';
import { offPage } from '../state/journey.js';
import { venueIds, venueModel, venueName, type VenueModel } from '../venue/venue-model.js';
import { venueToday } from '../venue/venue-time.js';

/** The later steps' code (`later-steps.ts`: details form, confirmation, calendar links), an on-demand chunk. */
export type LaterSteps = typeof import('../parts/later-steps.js');

/** The element as the reads see it: the attributes they depend on. */
export interface BookingDataHost extends ReactiveControllerHost {
  readonly api: string;
  readonly venue: string;
  readonly venueGroup: string;
  readonly steps: string;
  readonly hideOffers: boolean;
  readonly returnMethod: 'post' | 'get';
  readonly returnUrl: string;
  readonly now: Date | null;
  /** Where the later steps' styles are adopted when their chunk arrives. */
  readonly renderRoot: HTMLElement | DocumentFragment;
}

/** The booking as the element has it for this update. */
export interface BookingProgress {
  state: BookingState;
  /** The details form has been in sight: the marketing preferences are read from then on. */
  wantPreferences: boolean;
}

/** What the reads depend on for this update. */
interface BookingInputs {
  api: string;
  /** The `venue` attribute and `venue-group`, for the picker's list. */
  attribute: string;
  group: string;
  venue: VenueModel;
  order: readonly Step[];
  choices: Choices;
  /** A booking is stored: no availability is read. */
  confirmed: boolean;
  hideOffers: boolean;
  /** The details form has been in sight: the marketing preferences are read from then on. */
  wantPreferences: boolean;
  /** The party step is in sight: its larger-party field and select are in the later steps chunk. */
  partyInSight: boolean;
  /**
   * A step with nothing to choose is in sight (`dead`): what it offers is read (`help`) and its
   * template is in the later steps chunk; `people`: the party size when the booking type is what
   * nothing takes (the type step after a party size), else 0.
   */
  dead: boolean;
  people: number;
  /** Whether the venue's name is known without its record (create response, saved names). */
  titled: boolean;
  /** The venue's today (`yyyy-MM-dd`): the date the types' booking rules are read for. */
  today: string;
}

/** What the element hears of the reads. */
export interface BookingDataEvents {
  venues(venues: WireVenue[]): void;
  answer(availability: Availability): void;
  error(error: unknown, during: 'venues' | 'availability'): void;
}

/** A Task that can also tell, before the host's update starts it, that it is about to run. */
export class Read<const A extends readonly unknown[], R> {
  readonly task: Task<A, R>;
  /** The args of the last run. */
  private _ran: A | undefined;

  constructor(
    host: ReactiveControllerHost,
    private readonly _args: () => A,
    run: (args: A, signal: AbortSignal) => Promise<R>,
    private readonly _equal: (a: A, b: A) => boolean = shallowArrayEquals,
    callbacks: { onComplete?: (value: R) => void; onError?: (error: unknown) => void } = {},
  ) {
    this.task = new Task<A, R>(host, {
      task: (values, { signal }) => {
        this._ran = values;
        return run(values, signal);
      },
      args: _args,
      argsEqual: _equal,
      ...callbacks,
    });
  }

  /** Whether an answer for the current inputs is on its way, or this update starts asking for one. */
  get pending(): boolean {
    return this.task.status === TaskStatus.PENDING || !this._ran || !this._equal(this._ran, this._args());
  }

  /** The read as this update will see it. */
  get state(): ReadState<R> {
    const { status, value, error } = this.task;
    return { status: this.pending ? 'pending' : STATUS[status], value, error };
  }
}

/** `ReadState` statuses by `TaskStatus` (0 initial, 1 pending, 2 complete, 3 error). */
const STATUS = ['initial', 'pending', 'complete', 'error'] as const;

/** An availability answer in hand, with the read that produced it and its venue. */
type VenueAnswer = HeldAvailability & { venue: string };

/** The booking's reads. */
export class BookingData implements ReactiveController {
  /** The last availability answer, the read it answered and its venue. */
  private _held: VenueAnswer | null = null;
  private _client: ApiClient | null = null;
  private _clientBase = '';
  /** Set once a hand-off to the booking site (or a confirmation without a name) is in sight for good. */
  private _wantRecord = false;
  /** The answer that last put a hand-off in sight, and its venue: the proxy's hand-off id is asked for it. */
  private _handoff: VenueAnswer | null = null;
  /** Set once a booking is in sight for good (the party step, the details form or a confirmation). */
  private _wantLater = false;

  /** The picker's venues: the ids `venue` lists, or the `venue-group`'s (none for a single venue). */
  readonly venues: Read<readonly [string, string, string], WireVenue[]>;
  /** The availability the choices call for (`planRead`), none once a booking is confirmed. */
  readonly availability: Read<readonly [string, string, AvailabilityRead, boolean], Availability | null>;
  /** Marketing preferences, read once the details form is in sight: a guest who only looks costs no read. */
  readonly preferences: Read<readonly [string, string, boolean, LaterSteps | null], WireMarketingPreference[]>;
  /** Every visible offer, once per venue: badges filter it by its rules (`getOffers` ignores unchosen fields). */
  readonly offers: Read<readonly [string, string, boolean], WireOffer[]>;
  /** A single venue's name, read only when a hand-off or a confirmation needs it and nothing else gives it. */
  readonly record: Read<readonly [string, string, boolean, boolean], string>;
  /** The return bridge's signed hand-off id ('' without one), else false: the proxy confirms only returns with it. */
  readonly bridge: Read<readonly [string, VenueAnswer | null, LaterSteps | null], string | false>;
  /** The later steps' code, a pinned on-demand chunk fetched once the party step, a dead end or a booking is in sight. */
  readonly laterSteps: Read<readonly [boolean], LaterSteps | null>;
  /** The venue's policy text for a hand-off (`readPolicy`), read once one is in sight: never on a first load. */
  readonly policy: Read<readonly [string, VenueAnswer | null, LaterSteps | null], string | null>;
  /** What a dead end offers (`readPartyHelp`), read once one is in sight: never on a first load. */
  readonly help: Read<readonly [string, string, number, boolean, LaterSteps | null], PartyHelp | null>;
  /**
   * Each type's party sizes, read when an offer limits the size: a type's badge needs them before it
   * is chosen. The types show without waiting for them (a round trip after the types and offers):
   * the badges that need them fill in the line the type step keeps for them (`sizedOffers`).
   */
  readonly parties: Read<readonly [string, string, string, string], ReadonlyMap<string, PartyRange>>;
  /** The booking types the answers listed, and their venue (the party sizes are read for these). */
  private _types: { venue: string; ids: string } = { venue: '', ids: '' };

  constructor(
    private readonly _host: BookingDataHost,
    private readonly _progress: () => BookingProgress,
    events: BookingDataEvents,
  ) {
    // Added before its Tasks, so that `hostUpdate` settles what they want before they compare args.
    _host.addController(this);
    // In this order: each Task is a controller of the host, and they update in the order added.
    this.venues = this._venuesRead(_host, events);
    this.availability = this._availabilityRead(_host, events);
    this.offers = this._offersRead(_host);
    this.parties = this._partiesRead(_host);
    this.record = this._recordRead(_host);
    this.laterSteps = this._laterStepsRead(_host);
    this.preferences = this._preferencesRead(_host);
    this.bridge = this._bridgeRead(_host);
    this.help = this._helpRead(_host);
    this.policy = new Read(
      _host,
      () => [_host.api, this._handoff, this.laterSteps.task.value ?? null] as const,
      async ([api, handoff, later], signal) =>
        handoff && later ? later.readPolicy(this.clientFor(api), handoff.venue, handoff.read.choices, signal) : null,
    );
  }

  /** Venues that cannot be read keep what was known: the picker still lists them. */
  private _venuesRead(host: ReactiveControllerHost, events: BookingDataEvents): BookingData['venues'] {
    return new Read(
      host,
      () => {
        const { api, attribute, group } = this._inputs();
        return [api, attribute, group] as const;
      },
      ([api, attribute, group], signal) => this._readVenues(api, attribute, group, signal),
      undefined,
      { onComplete: (venues) => events.venues(venues), onError: (error) => events.error(error, 'venues') },
    );
  }

  /** Each answer is held (`current`), so a choice it already validated costs no read. */
  private _availabilityRead(host: ReactiveControllerHost, events: BookingDataEvents): BookingData['availability'] {
    return new Read(
      host,
      () => {
        const inputs = this._inputs();
        return [inputs.api, inputs.venue.current, this._plan(inputs), inputs.confirmed] as const;
      },
      async ([api, venue, read, confirmed], signal) => {
        if (!venue || confirmed) return null;
        const query = queryOf(read);
        // No `getOffers`: badges come from the offers' own rules (`offers.ts`), so the service is spared that work.
        const availability = normalizeAvailability(await readAvailability(this.clientFor(api), venue, query, signal));
        if (!signal.aborted) this._held = { read, availability, venue };
        const listed = availability.fields.type?.suggestions.map((item) => String(item.value)) ?? [];
        if (listed.length) this._types = { venue, ids: [...new Set(listed)].sort().join(',') };
        return availability;
      },
      // A confirmation is read, not watched: it ends the reads, and booking again changes the choices.
      (a, b) => a[0] === b[0] && a[1] === b[1] && readKey(a[2]) === readKey(b[2]),
      {
        onComplete: (answer) => answer && events.answer(answer),
        onError: (error) => events.error(error, 'availability'),
      },
    );
  }

  /** In parallel with the complete check before the form, so the form waits for nothing more. */
  private _preferencesRead(host: ReactiveControllerHost): BookingData['preferences'] {
    return new Read(
      host,
      () => {
        const { api, venue, wantPreferences } = this._inputs();
        return [api, venue.current, wantPreferences, this.laterSteps.task.value ?? null] as const;
      },
      // The form is the chunk's, which is usually here since the party step: this read rarely waits on it.
      async ([api, venue, wanted, later], signal) =>
        venue && wanted && later ? later.readPreferences(this.clientFor(api), venue, signal) : [],
    );
  }

  /** Only offers for partners: marketplace offers are not this widget's to attach. */
  private _offersRead(host: ReactiveControllerHost): BookingData['offers'] {
    return new Read(
      host,
      () => {
        const { api, venue, hideOffers } = this._inputs();
        return [api, venue.current, hideOffers] as const;
      },
      async ([api, venue, hidden], signal) => {
        if (!venue || hidden) return [];
        return partnerOffers((await optional(readOffers(this.clientFor(api), venue, signal))) ?? []);
      },
    );
  }

  /** One small read per type, for the venue's today, so the proxy shares them between guests. */
  private _partiesRead(host: ReactiveControllerHost): BookingData['parties'] {
    return new Read(
      host,
      () => this._partyArgs(),
      ([api, venue, ids, today], signal) => this._readParties(api, venue, ids, today, signal),
    );
  }

  /** Before a hand-off, so the name is saved for the confirmation on return. */
  private _recordRead(host: ReactiveControllerHost): BookingData['record'] {
    return new Read(
      host,
      () => {
        const { api, venue } = this._inputs();
        return [api, venue.current, venue.multi, this._wantRecord] as const;
      },
      async ([api, venue, multi, needed], signal) => {
        if (!needed || !venue || multi) return '';
        return venueName((await optional(readVenue(this.clientFor(api), venue, signal))) ?? undefined);
      },
    );
  }

  /**
   * Asked once a hand-off is in sight, with the details handed off: the proxy gives its id only when
   * their availability hands the guest off, and the booking site then POSTs the details back through
   * its bridge instead of putting them in a URL.
   */
  private _bridgeRead(host: ReactiveControllerHost): BookingData['bridge'] {
    return new Read(
      host,
      () => {
        const { api, returnMethod, returnUrl } = this._host;
        // A GET return to this page needs no bridge; one to another origin always does (journey.ts).
        const wanted = this._handoff && (returnMethod !== 'get' || offPage(returnUrl));
        return [api, wanted ? this._handoff : null, this.laterSteps.task.value ?? null] as const;
      },
      async ([api, handoff, later], signal) =>
        handoff && later ? later.readBridge(this.clientFor(api), handoff.venue, queryOf(handoff.read), signal) : false,
    );
  }

  /** Without it the party step shows chips, the form yields to the venue's own booking, the confirmation one line. */
  private _laterStepsRead(host: ReactiveControllerHost): BookingData['laterSteps'] {
    return new Read(
      host,
      // Wanted from the update in which a booking comes in sight (not from `hostUpdate`, which runs
      // after the element's view is decided), so that update's view already waits for the chunk;
      // and for good, so booking again keeps it.
      () => {
        const inputs = this._inputs();
        const { wantPreferences, confirmed, partyInSight, dead } = inputs;
        return [
          (this._wantLater ||= wantPreferences || confirmed || partyInSight || dead || this._away(inputs)),
        ] as const;
      },
      async ([wanted]) => {
        const later = wanted ? await importPinned('later-steps', () => import('../parts/later-steps.js')) : null;
        later?.adoptLaterStyles(this._host.renderRoot);
        return later;
      },
    );
  }

  /** The venue's phone and email, and for a party that no type takes that day the types that take it and their days. */
  private _helpRead(host: ReactiveControllerHost): BookingData['help'] {
    return new Read(
      host,
      () => {
        const { api, venue, dead, people } = this._inputs();
        return [api, venue.current, people, dead, this.laterSteps.task.value ?? null] as const;
      },
      async ([api, venue, people, dead, later], signal) =>
        dead && later && venue
          ? later.readPartyHelp(this.clientFor(api), venue, people, normalizeAvailability, signal)
          : null,
    );
  }

  /** The venue in use: its id, whether the guest picks it, and its name for people. */
  get venue(): VenueModel {
    const { venue, venueGroup } = this._host;
    const { pick } = this._progress().state;
    return venueModel(venue, venueGroup, pick, this.venues.task.value, this.record.task.value);
  }

  /** What the reads depend on, from the element's attributes and the booking of this update. */
  private _inputs(): BookingInputs {
    const host = this._host;
    const { state, wantPreferences } = this._progress();
    const { choices, confirmation, editing, pick } = state;
    const order = parseSteps(host.steps);
    const at = editing ?? nextStep(order, choices);
    const inputs: BookingInputs = {
      api: host.api,
      attribute: host.venue,
      group: host.venueGroup,
      venue: this.venue,
      order,
      choices,
      confirmed: Boolean(confirmation),
      hideOffers: host.hideOffers,
      wantPreferences,
      partyInSight: at === 'num_people',
      titled: Boolean(pick.title),
      today: venueToday(host.now ?? new Date()),
      dead: false,
      people: at === 'type' ? (choices.num_people ?? 0) : 0,
    };
    // As the step shows it (`flow.ts`): a step other than the date's with no valid value in the answer for it.
    const answer = at && at !== 'date' && at !== 'venue' ? this.current(inputs) : null;
    inputs.dead = Boolean(answer) && !validSuggestions(answer, at as Step).length;
    return inputs;
  }

  /** The reads as the view is decided on them (`viewFor`): a read about to start counts as pending. */
  get viewReads(): Pick<
    ViewState,
    'multi' | 'venues' | 'extrasPending' | 'laterPending' | 'laterFailed' | 'helpPending'
  > {
    return {
      helpPending: this._inputs().dead && (this.help.pending || this.laterSteps.pending),
      multi: this.venue.multi,
      venues: this.venues.state,
      extrasPending: this.offers.pending || this.preferences.pending,
      laterPending: this.laterSteps.pending,
      laterFailed: this.laterSteps.task.status === TaskStatus.ERROR,
    };
  }

  /** What the reads answered so far, as the templates take them: empty until answered. */
  get answers() {
    return {
      venues: this.venues.task.value ?? [],
      offers: this.offers.task.value ?? [],
      // Null while on their way: the type step keeps the badges' space until they land.
      parties: this.parties.pending
        ? null
        : (this.parties.task.value ?? (new Map() as ReadonlyMap<string, PartyRange>)),
      preferences: this.preferences.task.value ?? [],
      later: this.laterSteps.task.value ?? null,
      help: this.help.task.value ?? null,
      policy: this.policy.task.value ?? null,
    };
  }

  /** Runs a failed read again. */
  retry(during: 'venues' | 'availability'): void {
    void (during === 'venues' ? this.venues : this.availability).task.run();
  }

  hostUpdate(): void {
    const inputs = this._inputs();
    const away = this._away(inputs);
    if (away) this._handoff = this._held;
    this._wantRecord ||= away || (inputs.confirmed && !inputs.titled);
  }

  /** Forgets the answer in hand: a new journey reads its own. */
  forget(): void {
    this._held = null;
  }

  /** The proxy's client for `api`, made once per base (bookings are sent through it too). */
  clientFor(api: string): ApiClient {
    if (!this._client || this._clientBase !== api) {
      this._client = createApiClient({ base: api || '/api' });
      this._clientBase = api;
    }
    return this._client;
  }

  /**
   * The availability read the choices call for (`planRead`): a choice that the answer in hand
   * already validated, and that cannot change what the next step shows, costs no read.
   */
  private _plan(inputs: BookingInputs): AvailabilityRead {
    const held = this._held?.venue === inputs.venue.current ? this._held : null;
    return planRead(inputs.order, inputs.choices, held);
  }

  /** The answer in hand when it answers the read the choices call for now; else null. */
  current(inputs = this._inputs()): Availability | null {
    const held = this._held;
    if (!held || held.venue !== inputs.venue.current) return null;
    return readKey(held.read) === readKey(this._plan(inputs)) ? held.availability : null;
  }

  /** Whether the guest will finish on the booking site, on the current read's answer (an older one has no `next`). */
  private _away(inputs: BookingInputs): boolean {
    const answer = this.current(inputs);
    return Boolean(
      answer && (answer.depositRequired || (!nextStep(inputs.order, inputs.choices) && needsRedirect(answer))),
    );
  }

  /** The bridge's answer while it is on its way (a redirect waits for it), else null. */
  get bridging(): Promise<unknown> | null {
    const task = this.bridge.task;
    return task.status === TaskStatus.PENDING ? task.taskComplete.catch(() => false) : null;
  }

  /** The proxy's hand-off id when it offers its return bridge ('' without an id), else false. */
  get bridged(): string | false {
    return this.bridge.task.value ?? false;
  }

  /** The party sizes' read: the types listed, once an offer of the venue limits the party size. */
  private _partyArgs() {
    const { api, venue, today } = this._inputs();
    const sized = (this.offers.task.value ?? []).some((offer) => sizeCondition(offer) !== null);
    const ids = sized && this._types.venue === venue.current ? this._types.ids : '';
    return [api, venue.current, ids, today] as const;
  }

  /**
   * Each type's smallest and largest party, from its booking rules; a type whose read fails is left
   * out. Asked after the frame that shows the types, which does not need them: their requests are
   * not made in the task that renders the first choice.
   */
  private async _readParties(api: string, venue: string, ids: string, today: string, signal: AbortSignal) {
    const ranges = new Map<string, PartyRange>();
    const bound = (value: unknown) => (typeof value === 'number' ? value : null);
    if (ids) await new Promise((painted) => requestAnimationFrame(() => setTimeout(painted)));
    await Promise.all(
      (ids ? ids.split(',') : []).map(async (type) => {
        const rules = await optional(readBookingRules(this.clientFor(api), venue, { type, date: today }, signal));
        if (rules) ranges.set(type, { min: bound(rules.min_people), max: bound(rules.max_people) });
      }),
    );
    return ranges as ReadonlyMap<string, PartyRange>;
  }

  private async _readVenues(api: string, attribute: string, group: string, signal: AbortSignal): Promise<WireVenue[]> {
    const ids = venueIds(attribute);
    if (!group && ids.length < 2) return [];
    const client = this.clientFor(api);
    // A group's list holds only ids and paths (spec §4.9), so both forms read each venue's
    // settings for its title, in parallel; a venue that cannot be read keeps what was known.
    const listed: WireVenue[] = group ? await readVenueGroup(client, group, signal) : ids.map((id) => ({ _id: id }));
    return Promise.all(
      listed.map(async (known) => {
        const venue = await optional(readVenue(client, String(known._id), signal));
        return { ...known, ...venue, _id: known._id };
      }),
    );
  }
}

/** The availability query of a read (the hand-off asks with the same one, so the proxy's cache answers it). */
function queryOf(read: AvailabilityRead) {
  return read.fields ? { ...read.choices, fields: read.fields.join(',') } : { ...read.choices };
}

/** A read whose answer is optional: what it adds the flow can go on without, so a failure is null. */
function optional<T>(read: Promise<T>): Promise<T | null> {
  return read.catch(() => null);
}
