/**
 * A booking's conversion (issue 37, docs/events.md) where the browser's storage behaves badly: a
 * localStorage that throws counts each booking once for the page's life, quietly; a readable one
 * keeps the references counted across page loads, the last 50 only. The browser test
 * (test/browser/events.test.ts) drives the rest through the real widget, proxy and sandbox.
 */
import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { countConversion, markBridged, takeBridged } from '../../src/state/conversions.js';

type Globals = { dataLayer?: unknown[]; localStorage?: unknown; sessionStorage?: unknown };
const page = globalThis as Globals;

/** A Web Storage stand-in: the browser's, not ours. */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, String(value)),
    removeItem: (key: string) => void items.delete(key),
    clear: () => items.clear(),
    key: (index: number) => [...items.keys()][index] ?? null,
    get length() {
      return items.size;
    },
  };
}

const events = () => (page.dataLayer ?? []).map((push) => (push as { event?: string }).event).filter(Boolean);

describe('a booking counted for the ad platforms', () => {
  afterEach(() => {
    delete page.dataLayer;
    delete page.localStorage;
    delete page.sessionStorage;
  });

  it('counts once for the page’s life where localStorage throws, and says nothing of it', () => {
    Object.defineProperty(globalThis, 'localStorage', {
      configurable: true,
      get() {
        throw new DOMException('The operation is insecure.', 'SecurityError');
      },
    });
    const booking = { reference: 'DMN-THROWS1', status: 'confirmed', consent: false } as const;
    countConversion({ analytics: true }, booking);
    countConversion({ analytics: true }, booking);
    assert.deepEqual(events(), ['purchase']);
  });

  it('keeps the references counted across page loads, the last 50', () => {
    page.localStorage = memoryStorage();
    for (let n = 0; n < 60; n++)
      countConversion({ analytics: true }, { reference: `DMN-KEEP${n}`, status: 'enquiry', consent: false });
    const kept = JSON.parse((page.localStorage as Storage).getItem('venue-booking:counted')!);
    assert.equal(kept.length, 50);
    assert.equal(kept[49], 'DMN-KEEP59');
    assert.deepEqual(new Set(events()), new Set(['generate_lead']));
  });

  it('with analytics off and no pixel, pushes nothing and remembers nothing', () => {
    page.localStorage = memoryStorage();
    countConversion(
      { analytics: false, metaPixel: true },
      { reference: 'DMN-OFF1', status: 'confirmed', consent: true },
    );
    assert.equal(page.dataLayer, undefined);
    assert.equal((page.localStorage as Storage).getItem('venue-booking:counted'), null);
  });

  it('marks a hand-off only when its return goes through the bridge with a hand-off id, and takes the mark once', () => {
    page.sessionStorage = memoryStorage();
    const site = (back: string) => `https://book.example/?return_url=${encodeURIComponent(back)}`;
    markBridged(site('https://venue.example/menu?vb_return=book&reference=X'));
    assert.equal(takeBridged(), false);
    markBridged(site('https://proxy.example/api/return?venue=v1&page=p&handoff=signed.id'));
    assert.equal(takeBridged(), true);
    assert.equal(takeBridged(), false);
    markBridged('not a url');
    assert.equal(takeBridged(), false);
  });
});
