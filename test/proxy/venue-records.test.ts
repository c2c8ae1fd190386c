/**
 * The venue's records (proxy/state/records.ts): its profile, the sites its manager allowed, kept
 * in memory, in a file beside one process (and after its restart), in Redis for every instance,
 * and in the Durable Object; the profile checked and served to the widget; an allowed site let in
 * by the origin rule of every instance.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileRecords } from '../../proxy/node/records-file.js';
import { SITES_TABLE } from '../../proxy/state/allowed-sites.js';
import { VenueBookingState, type ObjectStorage } from '../../proxy/state/durable-object.js';
import { MemoryRecords } from '../../proxy/state/records.js';
import { createRedisState } from '../../proxy/state/redis.js';
import type { SharedState } from '../../proxy/state/shared.js';
import { checkProfile, PROFILES_TABLE, VenueProfiles } from '../../proxy/state/venue-profiles.js';
import { startRedis, until, type RedisServer } from '../support/redis.js';
import { memoryLogger, ORIGIN, recordingProxy, VENUE } from './support.js';

const PROFILE = {
  phone: '+44 20 7946 0000',
  email: 'bookings@vine.example',
  address: '1 Cellar Lane, London',
  cancellation: { online: true, hours_before: 24 },
  look: { theme: 'dark', colours: { accent: '#7A1F2B' }, booking_type: null, locale: 'fr' },
};

const NEW_SITE = 'https://new-site.example';

/** A GET of the venue's record from `origin`, as a widget on that site sends it. */
const fromSite = (origin: string) => ({ headers: { origin } });

describe('the venue profile', () => {
  it('keeps a valid profile, its colours in one spelling', () => {
    const checked = checkProfile(PROFILE);
    assert.ok('profile' in checked);
    assert.equal(checked.profile.look.colours.accent, '#7a1f2b');
    assert.deepEqual(checked.profile.cancellation, { online: true, hours_before: 24 });
  });

  it('names every wrong field and keeps nothing', () => {
    const checked = checkProfile({
      phone: 'call us',
      email: 'not-an-email',
      address: 'a\u0000b',
      cancellation: { online: true, hours_before: -1 },
      look: { theme: 'neon', colours: { accent: 'red' }, booking_type: '<b>', locale: '__proto__' },
    });
    assert.ok('problems' in checked);
    assert.deepEqual(Object.keys(checked.problems).sort(), [
      'address',
      'booking_type',
      'colour-accent',
      'email',
      'hours_before',
      'locale',
      'phone',
      'theme',
    ]);
  });

  it('refuses a field of another kind than text instead of dropping it', () => {
    const checked = checkProfile({ phone: 442079460000 });
    assert.ok('problems' in checked && checked.problems.phone);
  });

  it('is served to the widget from its records, and 404 in the envelope before one is saved', async () => {
    const records = new MemoryRecords();
    const { send } = recordingProxy({ records });
    const none = await send(`/api/venues/${VENUE}/profile`);
    assert.equal(none.status, 404);
    assert.equal(((await none.json()) as { status: number }).status, 404);
    await new VenueProfiles(records, memoryLogger()).put(
      VENUE,
      (checkProfile(PROFILE) as { profile: never }).profile,
      'studio',
    );
    const found = await send(`/api/venues/${VENUE}/profile`);
    assert.equal(found.status, 200);
    const body = (await found.json()) as Record<string, unknown>;
    assert.equal(body.venue_id, VENUE);
    assert.equal(body.phone, PROFILE.phone);
    assert.deepEqual(body.cancellation, PROFILE.cancellation);
  });

  it('is served only for a venue the proxy serves', async () => {
    const { send } = recordingProxy({ profileSeed: { [VENUE]: PROFILE } });
    const response = await send('/api/venues/64a1f0c2e4b0a1b2c3d4e599/profile');
    assert.equal(response.status, 404);
  });

  it('is seeded from the profiles file for venues with none, and the studio’s later change stands', async () => {
    const records = new MemoryRecords();
    const logger = memoryLogger();
    const profiles = new VenueProfiles(records, logger);
    const studio = (checkProfile({ ...PROFILE, phone: '+44 20 7946 1111' }) as { profile: never }).profile;
    await profiles.put(VENUE, studio, 'studio');
    assert.equal(await profiles.seed({ [VENUE]: PROFILE }, () => true), 0);
    assert.equal((await profiles.get(VENUE))?.phone, '+44 20 7946 1111');
    await assert.rejects(
      profiles.seed({ other: PROFILE }, (venue) => venue === VENUE),
      /does not serve/,
    );
    // The log says what was set, never the venue's contact details themselves.
    assert.ok(logger.lines.some((line) => line.msg === 'venue profile saved' && line.set === 'phone,email,address'));
    assert.ok(!JSON.stringify(logger.lines).includes('7946'));
  });
});

describe('records in a file beside one process', () => {
  const dir = mkdtempSync(join(tmpdir(), 'venue-records-'));

  it('come back after a restart, and a manager’s change is written at once', async () => {
    const path = join(dir, 'nested', 'records.json');
    const first = fileRecords(path);
    await first.set(PROFILES_TABLE, VENUE, '{"phone":null}');
    assert.match(readFileSync(path, 'utf8'), /phone/);
    await first.add('counts:2026-11', 'a', 2);
    await first.add('counts:2026-11', 'a', 3);
    await first.close();
    const second = fileRecords(path);
    assert.equal((await second.all(PROFILES_TABLE)).get(VENUE), '{"phone":null}');
    assert.equal((await second.all('counts:2026-11')).get('a'), '5');
    await second.close();
  });

  it('refuse to start on a file that is not theirs', () => {
    const path = join(dir, 'wrong.json');
    writeFileSync(path, '[1, 2]');
    assert.throws(() => fileRecords(path), /not a file of this proxy's records/);
    writeFileSync(path, '{ half');
    assert.throws(() => fileRecords(path), /not a file of this proxy's records/);
  });
});

describe('a site allowed from the studio', () => {
  it('is let in by the origin rule, and refused again once removed', async () => {
    const records = new MemoryRecords();
    const { send } = recordingProxy({ records });
    assert.equal((await send(`/api/venues/${VENUE}/profile`, fromSite(NEW_SITE))).status, 403);
    await records.set(SITES_TABLE, NEW_SITE, JSON.stringify({ addedAt: Date.now() }));
    await until(
      async () => (await send(`/api/venues/${VENUE}/profile`, fromSite(NEW_SITE))).status === 404,
      'the allowed site let in',
    );
    await records.set(SITES_TABLE, NEW_SITE, null);
    await until(
      async () => (await send(`/api/venues/${VENUE}/profile`, fromSite(NEW_SITE))).status === 403,
      'the removed site refused',
    );
    // The operator's list still applies, whatever the records say.
    assert.equal((await send(`/api/venues/${VENUE}/profile`, fromSite(ORIGIN))).status, 404);
  });
});

describe('records shared through Redis', { timeout: 60_000 }, () => {
  let redis: RedisServer;
  const states: SharedState[] = [];
  before(async () => {
    redis = await startRedis();
  });
  after(async () => {
    await Promise.all(states.map((state) => state.close()));
    await redis.kill();
  });

  /** One instance on `prefix`, with its own connection, as a separate process would have. */
  const instance = (prefix: string) => {
    const logger = memoryLogger();
    const state = createRedisState({
      url: redis.url,
      prefix,
      timeoutMs: 200,
      ttlMs: 15_000,
      staleMs: 60_000,
      holdMs: 15_000,
      logger,
      now: Date.now,
    });
    states.push(state);
    const { send } = recordingProxy({ state });
    return { state, send, records: state.records()! };
  };

  it('show a profile and an allowed site on every instance, and after a restart', async () => {
    const prefix = `records-${process.pid}:`;
    const a = instance(prefix);
    const b = instance(prefix);
    await until(() => a.state.health() === 'ok' && b.state.health() === 'ok', 'both instances on Redis');
    await new VenueProfiles(a.records, memoryLogger()).put(
      VENUE,
      (checkProfile(PROFILE) as { profile: never }).profile,
      'studio',
    );
    await a.records.set(SITES_TABLE, NEW_SITE, JSON.stringify({ addedAt: Date.now() }));
    await until(
      async () => (await b.send(`/api/venues/${VENUE}/profile`, fromSite(NEW_SITE))).status === 200,
      'the other instance serves the profile to the allowed site',
    );
    await a.records.add('counts:2026-11', 'x', 2);
    await b.records.add('counts:2026-11', 'x', 1);
    const restarted = instance(prefix);
    await until(() => restarted.state.health() === 'ok', 'the restarted instance on Redis');
    assert.equal((await restarted.records.all('counts:2026-11')).get('x'), '3');
    const profile = (await (await restarted.send(`/api/venues/${VENUE}/profile`)).json()) as { email: string };
    assert.equal(profile.email, PROFILE.email);
  });
});

describe('records in the Durable Object', () => {
  it('keep tables that never expire, set, deleted and counted', async () => {
    const entries = new Map<string, unknown>();
    const storage: ObjectStorage = {
      get: async <T>(key: string) => entries.get(key) as T | undefined,
      put: async (key, value) => void entries.set(key, value),
      delete: async (key) => entries.delete(key),
      list: async <T>() => new Map(entries) as Map<string, T>,
      getAlarm: async () => null,
      setAlarm: async () => {},
    };
    const object = new VenueBookingState({ storage });
    const ask = async (operation: unknown) =>
      (await object.fetch(new Request('https://state/', { method: 'POST', body: JSON.stringify(operation) }))).json();
    await ask({ op: 'tableSet', table: 't', field: 'a', value: 'one' });
    await ask({ op: 'tableAdd', table: 't', field: 'n', by: 2 });
    await ask({ op: 'tableAdd', table: 't', field: 'n', by: 5 });
    assert.deepEqual(await ask({ op: 'tableAll', table: 't' }), { a: 'one', n: '7' });
    await ask({ op: 'tableSet', table: 't', field: 'a', value: null });
    assert.deepEqual(await ask({ op: 'tableAll', table: 't' }), { n: '7' });
    await object.alarm();
    assert.deepEqual(await ask({ op: 'tableAll', table: 't' }), { n: '7' });
  });
});
