/**
 * Shapes of the sandbox seed (see SEED.md) and of its stored records.
 *
 * The seed is spec-shaped where the spec defines a resource (venue settings of §2.10, offers of §2.9,
 * users of §2.13, guests and tickets of §2.12) and adds documented sandbox extensions where the spec
 * is silent but availability must be computed from something: `rules` on booking types,
 * `capacity` and `bookings_shut` on venues, `flags` on bookings.
 */

import type { Weekday } from './time.js';

/** 'spec' answers as api-spec.md; 'live' as real-api-notes.md. */
export type Dialect = 'spec' | 'live';

/** A coloured label (booking_labels, booking_stages, customer_labels). */
export interface Label {
  id: string;
  label: string;
  colour: string;
  type?: string;
}

/** A package / pre-order item (§2.10). */
export interface Package {
  id: string;
  name: string;
  price: number;
  type: 'drink' | 'food';
  description?: string;
  sub_type?: string;
  diet_types?: string[];
}

/** Opening times of one weekday; `close` earlier than `open` means after midnight. */
export interface OpeningDay {
  status: boolean;
  open: string;
  close: string;
  private_hire: boolean;
}

/** An unavailable date range (inclusive) with the message guests see. */
export interface Unavailable {
  id: string;
  unavailable_from: string;
  unavailable_to: string;
  unavailable_message: string;
  close_admin: boolean;
}

/**
 * Sandbox extension: how a booking type takes bookings. Times are `HH:mm`; a `to` earlier than
 * `from` runs past midnight. Durations are minutes; -1 is "until close".
 */
export interface TypeRules {
  /** Weekdays the type runs on; all when absent. */
  days?: Weekday[];
  /** First and last start time. */
  from: string;
  to: string;
  /** Minutes between start times. */
  interval: number;
  /** Durations the guest chooses from (minutes); ignored when fixed_duration is set. */
  durations?: number[];
  /** The one duration of the type (minutes): no choice is offered. */
  fixed_duration?: number;
  min_people?: number | null;
  max_people?: number | null;
  /** Deposit per person in pounds; the booking must go through the web page to pay it. */
  deposit_per_person?: number | null;
  /** 'none' | 'optional' (offered) | 'required' (the web page must collect them). */
  preorders?: 'none' | 'optional' | 'required';
  /** Confirmed on submission (accept) rather than taken as an enquiry (enquire). */
  autoconfirm: boolean;
  /** Covers this type may hold at once; the venue capacity applies when absent. */
  capacity?: number;
  /** Value of the booking in pounds per person (estimated_value). */
  value_per_person?: number;
}

/** A booking type (§2.10 id, name) plus its rules. */
export interface BookingType {
  id: string;
  name: string;
  guestlist?: boolean;
  private_hire?: boolean;
  description?: string;
  rules: TypeRules;
  /** Ids of types offered alongside (live `availableLinkedTypes`). */
  linked_types?: string[];
}

/** A bookable area (table) with its zone. */
export interface Area {
  id: string;
  name: string;
  zone: string;
}

/** Marketing preference definition (§2.7). */
export interface MarketingPreference {
  id: string;
  created_date: string;
  name: string;
  description: string;
}

/** Settings a venue group may define for all its venues (§2.10 "settable at group level"). */
export interface GroupSettings {
  booking_labels?: Label[];
  booking_stages?: Label[];
  customer_labels?: Label[];
  packages?: Package[];
  preorder_menus?: { id: string; name: string }[];
}

/** A venue group. */
export interface VenueGroup extends GroupSettings {
  _id: string;
  name: string;
  path: string;
  region: string;
  marketing_preferences?: MarketingPreference[];
}

/** A venue with every §2.10 setting and the sandbox extensions. */
export interface Venue extends GroupSettings {
  _id: string;
  path: string;
  title: string;
  venue_group: string;
  region: string;
  page_type: string;
  type: string;
  status: 'live' | 'hidden';
  /** can-book setting (booking_available in booking-rules). */
  can_book: boolean;
  booking_notes: string;
  /** Same-day cut-off `HH:mm`; optional. */
  bookings_shut?: string;
  /** Longest booking in minutes (booking-rules max_duration); optional. */
  max_duration?: number;
  min_people?: number;
  max_people?: number;
  /** Sandbox extension: covers the venue can seat at once. */
  capacity: number;
  booking_types: BookingType[];
  bookable_areas: Area[];
  bookable_area_zones: { id: string; name: string }[];
  opening_times: Record<Weekday, OpeningDay>;
  booking_unavailable: Unavailable[];
  marketing_preferences?: MarketingPreference[];
}

/** Day rule of an offer. */
export interface DayRule {
  available: boolean;
  from: string;
  to: string;
}

/** An offer (§2.9). */
export interface Offer {
  _id: string;
  page_id: string;
  page_status: string;
  page_can_book: boolean;
  region_id: string;
  title: string;
  type_of_offer: unknown[];
  type_of_venue: { id: string; name: string }[];
  availability: string;
  description: string;
  start_date?: string | null;
  expiry_date?: string | null;
  visible_from?: string | null;
  visible_to?: string | null;
  rules: { min_people: number | null; max_people: number | null } & Record<Weekday, DayRule>;
  restrict_offer_to_types: boolean;
  booking_types?: string[];
}

/** A marketing preference on a user (§2.7). */
export interface UserPreference {
  id: string;
  opt_in_date: string | null;
  opt_out_date: string | null;
}

/** A customer user (§2.13). */
export interface User {
  _id: string;
  created_date: string;
  last_updated: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  username?: string;
  dob?: string;
  gender?: string;
  company?: string;
  status: string;
  wishlist: Record<string, unknown>;
  associated_venues: string[];
  marketing_permission?: boolean;
  marketing_preferences: UserPreference[];
}

/** A venue-group user (§2.14). */
export interface GroupUser {
  _id: string;
  venue_group: string;
  email: string;
  first_name: string;
  last_name: string;
  capabilities: string[];
}

/** Ticket of an event guest (§2.12). */
export interface Ticket {
  _id: string;
  ticket_ref: string;
  reference: number;
  checked_in: boolean;
  checked_in_by: string;
  guest_name: string;
  guest_email: string;
  refunded: boolean;
  item_id: string;
  item_name: string;
  sub_type_id: string;
  sub_type_name: string;
}

/** An event guest (§2.12) within one occurrence. */
export interface Guest {
  rep_commission: number;
  discount: number;
  unitPrice: number;
  checkedInGuests: number;
  numPeople: number;
  phone: string;
  repId: string;
  source: string;
  comments: string;
  email: string;
  purchaseId: string;
  purchaseRef: string;
  subType: string;
  subTypeName: string;
  firstName: string;
  lastName: string;
  purchaseCheckoutQuestions: unknown[];
  productItems: unknown[];
  checkedInTickets: unknown[];
  ticketList: Ticket[];
  checkedIn: boolean;
}

/** A ticketed event: its occurrences by date hold the guests. */
export interface SandboxEvent {
  _id: string;
  name: string;
  venue_id: string;
  ticket_types: { id: string; name: string; price: number }[];
  occurrences: { date: string; guests: Guest[] }[];
}

/** An API app: credentials and capability strings (§4.10), or 'all'. */
export interface App {
  id: string;
  key: string;
  capabilities: string[] | 'all';
  name?: string;
}

/** Notification flags of a booking (sandbox extension backing the §4.6 notifications filter). */
export interface BookingFlags {
  unread_messages?: boolean;
  customer_notes_unread?: boolean;
  packages_requested?: boolean;
  deposit_authenticated?: boolean;
  deposit_paid?: boolean;
  customer_preorder_added?: boolean;
  customer_preorder_complete?: boolean;
  email_delivery_failed?: boolean;
  customer_change?: boolean;
  customer_cancelled?: boolean;
}

/** A pre-order (§2.6). */
export interface Preorder {
  id: string;
  created_date: string;
  name: string;
  email: string;
  items: PreorderItem[];
  total_cost: number;
  amount_paid: number;
  service_charge_percentage: number;
  service_charge_amount: number;
  status: 'in_progress' | 'complete';
  source: 'admin' | 'customer';
}

/** A pre-order item (§2.6). */
export interface PreorderItem {
  id: string;
  name: string;
  description: string;
  plu: string;
  type: string;
  sub_type: string;
  surcharge: string;
  options_string: string;
  base_price: number;
  options_price: number;
  price: number;
  discount_value: number;
  total: number;
  quantity: number;
  options: unknown[];
}

/** Booking status values (§3.1). */
export type BookingStatus = 'new' | 'in_progress' | 'complete' | 'rejected' | 'deleted' | 'lost';

/**
 * A stored booking. Dates are `yyyy-MM-dd`, times `HH:mm` (a time before opening on a venue that
 * closes after midnight is early next morning of the same business day), instants epoch ms.
 */
export interface Booking {
  _id: string;
  booking_id: number;
  reference: string;
  venue_id: string;
  venue_group: string;
  region: string;
  date: string;
  time: string;
  duration: number;
  type: string;
  num_people: number;
  first_name: string;
  last_name: string;
  email: string | null;
  phone: string | null;
  company?: string | null;
  notes: string | null;
  dob?: string | null;
  source: string;
  partner_source?: string | null;
  status: BookingStatus;
  created_date: number;
  last_updated: number;
  status_changed_date: number | null;
  created_by: string;
  assigned_to: string | null;
  completed_by: string | null;
  completed_date: number | null;
  follow_up: number | null;
  labels: string[];
  admin_notes: unknown[];
  comments: unknown[];
  assigned_areas: Area[];
  deposits: { amount: number; status: string; date: string }[];
  preorders: Preorder[];
  packages: string[] | null;
  offer: string | null;
  user_id: string | null;
  managed_by_venue: boolean;
  invoiced: boolean;
  reconciled: boolean;
  walk_in: boolean;
  value: number;
  marketing_preferences: string[];
  newsletter_signup: boolean;
  custom_field_value: string | null;
  flags: BookingFlags;
}

/** The whole seed. */
export interface Seed {
  venue_groups: VenueGroup[];
  venues: Venue[];
  offers: Offer[];
  users: User[];
  group_users: GroupUser[];
  events: SandboxEvent[];
  apps: App[];
  /** Stored bookings; `created_date` etc. may be ISO strings (London wall time when zone-less). */
  bookings?: SeedBooking[];
  /** The scenario of every request that names none (see `Prefer: scenario=…`); the `scenario` option wins. */
  scenario?: string;
}

/** A booking as written in a seed: every field optional except the booking's essentials. */
export type SeedBooking = Partial<
  Omit<Booking, 'created_date' | 'last_updated' | 'status_changed_date' | 'completed_date' | 'follow_up'>
> &
  Pick<Booking, 'venue_id' | 'date' | 'time' | 'type' | 'num_people' | 'first_name' | 'last_name'> & {
    created_date?: string | number;
    last_updated?: string | number;
    status_changed_date?: string | number | null;
    completed_date?: string | number | null;
    follow_up?: string | number | null;
  };
