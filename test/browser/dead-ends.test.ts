/**
 * No guest meets a dead end (issue 28): every booking type of the seed's venues, on a weekday, a
 * Saturday, a Sunday and a day the venue is closed, walked through the real proxy and sandbox
 * (`test/support/dead-ends.ts`). The same walk over every day of two weeks is a bench.
 */
import { expect } from '@open-wc/testing';
import '../../src/index.js';
import { walkVenue } from '../support/dead-ends.js';
import { newStack } from '../support/widget-page.js';

/**
 * Each venue of the seed, with the sandbox's clock (a Monday, 10:00 in London) and the days walked:
 * a weekday, a Saturday, a Sunday and a day the venue is closed (Christmas; a Monday in its
 * refurbishment; a Tuesday).
 */
const VENUES: { venue: string; now: string; days: string[] }[] = [
  {
    venue: '64a1f0c2e4b0a1b2c3d4e501',
    now: '2026-12-14T10:00',
    days: ['2026-12-15', '2026-12-19', '2026-12-20', '2026-12-25'],
  },
  {
    venue: '64a1f0c2e4b0a1b2c3d4e502',
    now: '2026-03-16T10:00',
    days: ['2026-03-17', '2026-03-21', '2026-03-22', '2026-03-23'],
  },
  {
    venue: '64a1f0c2e4b0a1b2c3d4e503',
    now: '2026-03-16T10:00',
    days: ['2026-03-18', '2026-03-21', '2026-03-22', '2026-03-24'],
  },
];

describe('no dead ends', () => {
  afterEach(() => sessionStorage.clear());

  for (const { venue, now, days } of VENUES)
    it(`every type of venue …${venue.slice(-3)}: each screen offers a way on or back, and says why when empty`, async function () {
      // A walk of hundreds of screens: far longer than one ordinary test, whatever the engine.
      this.timeout(180_000);
      const stack = await newStack({ sandbox: { now }, proxy: { unlimited: true } });
      const report = await walkVenue(stack, venue, days, now);
      expect(report.deadEnds).to.deep.equal([]);
      expect(report.screens).to.be.greaterThan(20);
    });
});
