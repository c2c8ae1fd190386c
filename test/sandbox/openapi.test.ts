/** Issue 18: the OpenAPI 3.1 document, built from the route and rule tables, and the hook that checks every answer. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import { FIELDS } from '../../sandbox/availability/index.js';
import { NEW_BOOKING_FIELDS, SEARCH_PARAMS, UPDATE_RULES } from '../../sandbox/bookings/index.js';
import { openApiDocument } from '../../sandbox/openapi.js';
import { ROUTES } from '../../sandbox/routes.js';
import { avail, bookingBody, setup, T, V1 } from './helpers.js';
import { checkAnswer, checked } from './openapi-answers.js';

const doc = openApiDocument('https://sandbox.example') as any;

describe('the OpenAPI document', () => {
  it('validates as OpenAPI 3.1', async () => {
    const validator = new Validator();
    const result = await validator.validate(doc);
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
    assert.equal(validator.version, '3.1');
  });

  it('is served at /v4/openapi.json without credentials, naming the sandbox as its server', async () => {
    const { get } = setup({ publicUrl: 'http://localhost:9999/sandbox' });
    const res = await get('/v4/openapi.json', null);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type')!, /application\/json/);
    assert.equal(res.body.openapi, '3.1.0');
    assert.deepEqual(res.body.servers, [{ url: 'http://localhost:9999/sandbox/v4' }]);
  });

  it('lists every operation of the route table, and no other', () => {
    const fromTable = ROUTES.flatMap((r) => Object.keys(r.methods).map((m) => `${m.toLowerCase()} ${r.path}`)).sort();
    const fromDoc = Object.entries(doc.paths)
      .flatMap(([path, item]) => Object.keys(item as object).map((m) => `${m} ${path}`))
      .sort();
    assert.deepEqual(fromDoc, fromTable);
  });

  it('takes each parameter from the rule table the sandbox validates it with', () => {
    const body = doc.paths['/bookings'].post.requestBody.content['application/json'].schema;
    assert.deepEqual(Object.keys(body.properties).sort(), Object.keys(NEW_BOOKING_FIELDS).sort());
    const required = Object.entries(NEW_BOOKING_FIELDS)
      .filter(([, rule]) => rule.required === 'always')
      .map(([name]) => name);
    assert.deepEqual([...body.required].sort(), required.sort());
    assert.equal(body.properties.notes.maxLength, NEW_BOOKING_FIELDS.notes!.max);

    const update = doc.paths['/bookings/{booking_id}'].post.requestBody.content['application/json'].schema;
    assert.deepEqual(Object.keys(update.properties).sort(), Object.keys(UPDATE_RULES).sort());
    assert.deepEqual(update.properties.status.enum, UPDATE_RULES.status!.choices);

    const query = (path: string) =>
      doc.paths[path].get.parameters.filter((p: any) => p.in === 'query').map((p: any) => p.name);
    assert.deepEqual(query('/bookings').sort(), Object.keys(SEARCH_PARAMS).sort());
    const availability = query('/venues/{venue_id}/booking-availability');
    for (const field of [...FIELDS, 'fields', 'getOffers']) assert.ok(availability.includes(field), field);
  });

  it('documents the scenarios on the Prefer header', () => {
    const prefer = doc.components.parameters.Prefer;
    for (const name of [
      'fully-booked',
      'deposit-required',
      'enquiry-only',
      'rate-limited',
      'unavailable',
      'slow',
      'answer-lost',
    ])
      assert.match(prefer.description, new RegExp(name));
  });
});

describe('the answer check every sandbox test goes through', () => {
  it('checks answers, and passes real ones in both dialects', async () => {
    const before = checked.answers;
    for (const dialect of ['spec', 'live'] as const) {
      const { get, post } = setup({ dialect });
      assert.equal((await get(avail(V1, { type: T.table, getOffers: true }))).status, 200);
      assert.equal((await post('/v4/bookings', bookingBody())).status, 200);
      assert.equal((await post('/v4/bookings', {})).status, 400);
    }
    assert.equal(checked.answers, before + 6);
  });

  it('refuses an answer that drifted from the document', async () => {
    const request = new Request(`http://sandbox.test/v4/venues/${V1}/booking-availability`);
    const envelope = {
      status: 200,
      requestTime: '2026-03-20T10:00:00',
      responseTime: '2026-03-20T10:00:00',
      statusText: 'OK',
      url: `/v4/venues/${V1}/booking-availability`,
      method: 'GET',
      params: [],
    };
    const drifted = Response.json({ ...envelope, payload: { valid: true, validation: {}, action: 'maybe' } });
    await assert.rejects(checkAnswer(request, drifted), /does not match the OpenAPI document/);
    const absoluteUrl = Response.json(
      { ...envelope, url: 'http://sandbox.test/v4/x', payload: { message: 'x', errors: [] } },
      { status: 404 },
    );
    await assert.rejects(checkAnswer(request, absoluteUrl), /does not match/);
    const undocumented = Response.json({ ...envelope, payload: {} });
    await assert.rejects(checkAnswer(new Request('http://sandbox.test/v4/nowhere'), undocumented), /does not list/);
  });
});
