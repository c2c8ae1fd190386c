/**
 * The OpenAPI 3.1 document of the v4 interface as the sandbox answers it, served at
 * `/v4/openapi.json` (and printed by `venue-booking-sandbox --print-openapi`).
 *
 * Built from the route table ({@link ROUTES}): every operation, and every parameter from the rule
 * table the sandbox validates it with, so the document cannot list a parameter the sandbox does not
 * read, or miss one it does. The answers' schemas below cover both dialects (spec, and live where
 * the live service differs, noted in each description); the sandbox's own test suite validates
 * every answer it gets against them.
 */

import type { Method, Operation } from './context.js';
import { UPDATE_RULES } from './bookings/index.js';
import { ROUTES } from './routes.js';
import { SCENARIOS } from './scenarios.js';
import { schemaOf, type JsonSchema, type ParamTable } from './schema.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const str = { type: 'string' };
const bool = { type: 'boolean' };
const int = { type: 'integer' };
const num = { type: 'number' };
const nullable = (type: string) => ({ type: [type, 'null'] });
const arrayOf = (items: JsonSchema) => ({ type: 'array', items });
const DATE = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' };
const DATE_OR_MIDNIGHT = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}(T00:00:00)?$' };
const TIME = { type: 'string', pattern: '^([01]\\d|2[0-3]):[0-5]\\d$' };
const TIMESTAMP = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}$' };

/** An object with these required properties (others optional); closed unless `open`. */
function object(required: string[], properties: Record<string, JsonSchema>, open = false): JsonSchema {
  return { type: 'object', required, properties, ...(open ? {} : { additionalProperties: false }) };
}

/** A field's validation object (§2.2) whose suggestions have the given shape. */
function fieldValidation(item: JsonSchema, extra: Record<string, JsonSchema> = {}): JsonSchema {
  return object(['valid', 'suggestedValues'], {
    valid: bool,
    errors: arrayOf(ref('FieldError')),
    suggestedValues: arrayOf(item),
    ...extra,
  });
}

const offers = arrayOf(str);
const message = { ...nullable('string'), description: 'Extra information; the live service sends null' };

/** The schemas of the answers' payloads and of what they hold. */
const SCHEMAS: Record<string, JsonSchema> = {
  Envelope: {
    description:
      'Every JSON answer (§2.1). url is the request path and params the query string parameters ([] without a query string), as the live service echoes them.',
    ...object(['payload', 'status', 'requestTime', 'responseTime', 'statusText', 'url', 'method', 'params'], {
      payload: {},
      status: int,
      requestTime: TIMESTAMP,
      responseTime: TIMESTAMP,
      statusText: str,
      url: { type: 'string', pattern: '^/' },
      method: str,
      params: {
        anyOf: [
          { type: 'array', maxItems: 0 },
          { type: 'object', additionalProperties: { anyOf: [str, arrayOf(str)] } },
        ],
      },
      revision: { type: 'object' },
    }),
  },
  FieldError: object(['code', 'message', 'fields'], { code: str, message: str, fields: arrayOf(str) }),
  Error: {
    description: 'The payload of every non-200 JSON answer: a message and field errors (possibly none).',
    ...object(['message', 'errors'], { message: str, errors: arrayOf(ref('FieldError')) }),
  },
  Action: { enum: ['accept', 'enquire', 'may_enquire', 'reject'] },
  TypeSuggestion: object(['value', 'valid', 'message'], {
    value: object(
      ['id', 'name', 'guestlist'],
      {
        id: str,
        name: str,
        guestlist: bool,
        private_hire: { ...bool, description: 'spec dialect' },
        privateHire: { ...bool, description: 'live dialect' },
        autoconfirmable: { ...bool, description: 'live dialect' },
        availableLinkedTypes: { ...arrayOf(str), description: 'live dialect' },
      },
      false,
    ),
    valid: bool,
    message,
    errors: { ...arrayOf(ref('FieldError')), description: 'live dialect' },
    offers,
  }),
  PartySizeSuggestion: object(['value', 'valid', 'message'], { value: int, valid: bool, message }),
  DateSuggestion: {
    description: 'The spec dialect has value, the live dialect date.',
    anyOf: [
      object(['value', 'valid', 'message'], { value: DATE, valid: bool, message }),
      object(['date', 'valid', 'message'], { date: DATE, valid: bool, message }),
    ],
  },
  TimeSuggestion: {
    description: 'The spec dialect has value, the live dialect time (no value).',
    anyOf: [
      object(['value', 'valid', 'message', 'action'], {
        value: TIME,
        valid: bool,
        message,
        action: ref('Action'),
        offers,
      }),
      object(['time', 'valid', 'message', 'action'], {
        time: TIME,
        valid: bool,
        message,
        action: ref('Action'),
        offers,
      }),
    ],
  },
  DurationSuggestion: object(['value', 'label', 'valid', 'message'], {
    value: { ...num, description: 'Decimal hours (spec dialect) or minutes (live); -1 until close' },
    label: str,
    endTime: TIME,
    valid: bool,
    message,
    offers,
  }),
  Availability: object(['valid', 'validation', 'action', 'depositRequired', 'preordersAvailable', 'bookingDetails'], {
    valid: { ...bool, description: 'Whether the computed fields are valid' },
    validation: object([], {
      type: fieldValidation(ref('TypeSuggestion')),
      num_people: fieldValidation(ref('PartySizeSuggestion'), {
        rules: object(['min', 'max'], { min: nullable('integer'), max: nullable('integer') }),
      }),
      date: fieldValidation(ref('DateSuggestion')),
      time: fieldValidation(ref('TimeSuggestion')),
      duration: fieldValidation(ref('DurationSuggestion')),
      next: { ...object(['valid'], { valid: { const: true } }), description: 'Only with fields=next' },
    }),
    action: ref('Action'),
    depositRequired: bool,
    preordersAvailable: bool,
    bookingDetails: object(['venue_id', 'venue_group'], {
      venue_id: str,
      venue_group: str,
      type: str,
      num_people: int,
      date: { ...DATE_OR_MIDNIGHT, description: 'YYYY-MM-DD (spec), YYYY-MM-DDT00:00:00 (live)' },
      time: TIME,
      duration: num,
      payments: { ...arrayOf({}), description: 'live dialect' },
    }),
    next: {
      description:
        'When the booking can be submitted, or with fields=next: the hosted page, and the API URL unless a deposit or pre-orders need the page.',
      ...object(['web'], { web: { type: 'string', format: 'uri' }, api: { type: 'string', format: 'uri' } }),
    },
  }),
  BookingTypeRef: object(['guestlist', 'id', 'name', 'private_hire'], {
    guestlist: bool,
    id: str,
    name: str,
    private_hire: bool,
    value: { ...num, description: 'Full record only' },
    use_standing_capacity: { ...bool, description: 'live dialect' },
  }),
  Deposit: object(['amount', 'status', 'date'], { amount: num, status: str, date: TIMESTAMP }),
  Preorder: object(
    ['id', 'created_date', 'name', 'email', 'items', 'total_cost', 'amount_paid', 'status', 'source'],
    {
      id: str,
      created_date: str,
      name: str,
      email: str,
      items: arrayOf(object(['id', 'name', 'price', 'quantity', 'total'], {}, true)),
      total_cost: num,
      amount_paid: num,
      service_charge_percentage: num,
      service_charge_amount: num,
      status: { enum: ['in_progress', 'complete'] },
      source: { enum: ['admin', 'customer'] },
    },
    true,
  ),
  BookingRecord: {
    description:
      'The booking of a create answer (§2.4). The live dialect has no created_by, adds payments: [], and has notes, packages and offer only when the booking has them.',
    ...object(
      [
        '_id',
        'created_date',
        'last_updated',
        'reference',
        'venue_id',
        'date',
        'time',
        'type',
        'num_people',
        'first_name',
        'last_name',
        'email',
        'source',
        'deposits',
      ],
      {
        _id: str,
        created_date: TIMESTAMP,
        last_updated: TIMESTAMP,
        created_by: str,
        reference: str,
        venue_id: str,
        date: TIMESTAMP,
        time: TIME,
        type: ref('BookingTypeRef'),
        num_people: int,
        first_name: str,
        last_name: str,
        email: nullable('string'),
        notes: nullable('string'),
        source: str,
        packages: { type: ['array', 'null'], items: str },
        offer: { type: ['string', 'object', 'null'] },
        payments: arrayOf({}),
        deposits: arrayOf(ref('Deposit')),
        preorders: arrayOf(ref('Preorder')),
      },
      true,
    ),
  },
  VenueSummary: object(['_id', 'type', 'title', 'path', 'page_type'], {
    _id: str,
    type: { ...str, description: 'venue (live dialect); the venue type of the seed (spec dialect)' },
    title: str,
    path: str,
    page_type: str,
  }),
  CreatedBooking: object(['booking', 'bookingStatus', 'venue'], {
    booking: ref('BookingRecord'),
    bookingStatus: { enum: ['confirmed', 'received'] },
    venue: ref('VenueSummary'),
  }),
  UpdatedBooking: object(['booking'], {
    booking: {
      allOf: [ref('BookingRecord')],
      required: ['booking_id', 'status', 'duration', 'venue_group', 'status_changed_date'],
      properties: {
        booking_id: int,
        status: { enum: UPDATE_RULES.status!.choices },
        status_changed_date: { anyOf: [TIMESTAMP, { type: 'null' }], description: 'Set by every status change' },
        duration: int,
        venue_group: str,
        value: num,
      },
    },
  }),
  BookingSearch: object(['bookings', 'start', 'numFound'], {
    bookings: arrayOf({
      type: 'object',
      description: 'The fields of §2.5, or those fields= asked for',
      properties: { _id: str, booking_id: int, date: TIMESTAMP, time: TIME, status: str, num_people: int },
    }),
    start: int,
    numFound: int,
  }),
  Area: object(['id', 'name', 'zone'], { id: str, name: str, zone: str }),
  Areas: object(['areas'], { areas: arrayOf(ref('Area')) }),
  Preorders: object(['preorders'], { preorders: arrayOf(ref('Preorder')) }),
  BookingRules: object(['bookings_from', 'bookings_to', 'booking_available', 'booking_notes'], {
    bookings_from: TIME,
    bookings_to: TIME,
    booking_available: bool,
    booking_notes: str,
    max_duration: int,
    min_people: num,
    max_people: num,
    bookings_shut: TIME,
  }),
  Offers: arrayOf(
    object(
      ['_id', 'page_id', 'title', 'availability', 'rules', 'restrict_offer_to_types'],
      {
        _id: str,
        page_id: str,
        title: str,
        availability: str,
        rules: object(
          ['min_people', 'max_people'],
          { min_people: nullable('integer'), max_people: nullable('integer') },
          true,
        ),
        restrict_offer_to_types: bool,
        booking_types: arrayOf(str),
      },
      true,
    ),
  ),
  MarketingPreferences: object(['marketing_preferences'], {
    marketing_preferences: arrayOf(
      object(['id', 'name'], { id: str, name: str, description: str, created_date: str }, true),
    ),
  }),
  VenueList: object(['pages'], { pages: arrayOf(object(['_id', 'path'], { _id: str, path: str })) }),
  VenueSettings: object(['venue'], {
    venue: object(['_id', 'path', 'title'], { _id: str, path: str, title: str }, true),
    venue_group: {
      ...object(['_id', 'path'], { _id: str, path: str }, true),
      description: 'When a group id was given',
    },
  }),
  GroupUser: object(['_id', 'venue_group', 'email', 'first_name', 'last_name', 'capabilities'], {
    _id: str,
    venue_group: str,
    email: str,
    first_name: str,
    last_name: str,
    capabilities: arrayOf(str),
  }),
  GroupUserAnswer: object(['user'], { user: ref('GroupUser') }),
  GroupUserList: object(['users'], { users: arrayOf(ref('GroupUser')) }),
  Deleted: object(['deleted', '_id'], { deleted: { const: true }, _id: str }),
  Guests: object(['guests'], {
    guests: arrayOf(
      object(
        ['firstName', 'lastName', 'numPeople', 'ticketList', 'checkedIn'],
        {
          firstName: str,
          lastName: str,
          numPeople: int,
          ticketList: arrayOf(
            object(['_id', 'reference', 'checked_in'], { _id: str, reference: int, checked_in: bool }, true),
          ),
          checkedIn: bool,
        },
        true,
      ),
    ),
  }),
  User: object(
    ['_id'],
    {
      _id: str,
      email: str,
      first_name: str,
      last_name: str,
      marketing_preferences: arrayOf(
        object(['id'], { id: str, opt_in_date: nullable('string'), opt_out_date: nullable('string') }),
      ),
    },
    true,
  ),
  UserSearch: object(['users', 'start', 'numFound'], { users: arrayOf(ref('User')), start: int, numFound: int }),
};

/** The rate-limit headers every answer carries (§8). */
const RATE_HEADERS = {
  'X-RateLimit-Limit': { description: 'Requests per hour', schema: str },
  'X-RateLimit-Remaining': { description: 'Requests left in the current window', schema: str },
  'X-RateLimit-Reset': { description: 'When the window resets, ISO 8601', schema: str },
};

/** The schema of an enveloped answer whose payload has the given schema. */
function enveloped(payload: JsonSchema): JsonSchema {
  return { allOf: [ref('Envelope')], properties: { payload }, unevaluatedProperties: false };
}

const PREFER = {
  name: 'Prefer',
  in: 'header',
  required: false,
  description: `Sandbox only: scenario=<name> and/or latency=<ms>. Scenarios: ${Object.entries(SCENARIOS)
    .map(([name, s]) => `${name} — ${s.doc}`)
    .join(' ')}`,
  schema: { type: 'string', examples: ['scenario=fully-booked', 'scenario=slow, latency=800'] },
};

/** Path parameters whose form the service fixes, by name (the rest are any text). */
const PATH_PARAMS: Record<string, { description: string; schema: JsonSchema }> = {
  booking_id: {
    description:
      'The booking’s _id from the create answer (24 hex digits); its numeric booking_id or its reference answers 404',
    schema: { type: 'string', pattern: '^[0-9a-f]{24}$' },
  },
};

/** An object schema of a parameter table (a request body). */
function bodySchema(params: ParamTable): JsonSchema {
  const required = Object.entries(params)
    .filter(([, p]) => p.required)
    .map(([name]) => name);
  const properties = Object.fromEntries(Object.entries(params).map(([name, p]) => [name, schemaOf(p)]));
  return { type: 'object', ...(required.length ? { required } : {}), properties };
}

/** The OpenAPI operation of one route table row. */
function operationOf(path: string, method: Method, op: Operation): JsonSchema {
  const pathParams = [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    ...(PATH_PARAMS[name!] ?? { schema: str }),
  }));
  const params = op.params ?? {};
  const query =
    method === 'POST'
      ? []
      : Object.entries(params).map(([name, p]) => ({
          name,
          in: 'query',
          required: !!p.required,
          description: p.doc,
          schema: schemaOf(p),
        }));
  const payload = typeof op.payload === 'string' ? ref(op.payload) : op.payload;
  const content = {
    'application/json': { schema: enveloped(payload) },
    ...Object.fromEntries(Object.entries(op.alsoAnswers ?? {}).map(([type, schema]) => [type, { schema }])),
  };
  const error = { $ref: '#/components/responses/Error' };
  return {
    operationId: `${method.toLowerCase()}${path.replace(/[{}]/g, '').replace(/(^|[/-])(\w)/g, (_m, _s, c: string) => c.toUpperCase())}`,
    summary: op.summary,
    parameters: [...pathParams, ...query, { $ref: '#/components/parameters/Prefer' }],
    ...(method === 'POST' && Object.keys(params).length
      ? {
          requestBody: {
            description:
              'A JSON object, or a form-encoded body (`name[]` for lists); the query string is read as well.',
            content: {
              'application/json': { schema: bodySchema(params) },
              'application/x-www-form-urlencoded': { schema: bodySchema(params) },
            },
          },
        }
      : {}),
    responses: {
      '200': { description: 'OK', headers: RATE_HEADERS, content },
      ...Object.fromEntries(
        Object.entries(op.errors ?? {}).map(([status, description]) => [
          status,
          { description, headers: RATE_HEADERS, content: { 'application/json': { schema: enveloped(ref('Error')) } } },
        ]),
      ),
      '4XX': error,
      '5XX': error,
      '504': {
        description: 'The answer was lost on the way (scenario answer-lost): a gateway page; the request was applied',
        content: { 'text/html': { schema: str } },
      },
    },
  };
}

/** The document, with `publicUrl` (the sandbox's address) as its server. */
export function openApiDocument(publicUrl = 'http://localhost:8787'): Record<string, unknown> {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of ROUTES) {
    const item: Record<string, JsonSchema> = {};
    for (const [method, op] of Object.entries(route.methods) as [Method, Operation][])
      item[method.toLowerCase()] = operationOf(route.path, method, op);
    paths[route.path] = item;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'v4 booking service (venue-booking-sandbox)',
      version: '4',
      description:
        'The v4 booking and venue management interface as the offline sandbox answers it, in both of its dialects: spec (the published specification) and live (the shapes the live service was observed to send); where they differ, the schemas accept both and say which is which. Sandbox additions: the Prefer header (scenarios), /v4/openapi.json, and the controls under /__sandbox (journal, clock, reset) when enabled.',
    },
    servers: [{ url: `${publicUrl}/v4` }],
    security: [{ appKey: [] }],
    paths,
    components: {
      securitySchemes: {
        appKey: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description: '<APP_ID>:<API_KEY> (§5); 401 without it, 403 when it does not permit the request',
        },
      },
      parameters: { Prefer: PREFER },
      responses: {
        Error: {
          description:
            'An error in the envelope: 400, 401, 403, 404, 405, 413, 429 (with Retry-After in scenario rate-limited), 503',
          headers: RATE_HEADERS,
          content: { 'application/json': { schema: enveloped(ref('Error')) } },
        },
      },
      schemas: SCHEMAS,
    },
  };
}
