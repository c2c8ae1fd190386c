/**
 * The no-dead-ends walk over every day of the next two weeks of the sandbox's clock, for every
 * booking type of the seed's venues (`test/support/dead-ends.ts`). A browser file, run by
 * `dead-ends.bench.ts` through web-test-runner (not by CI: its name is no `*.test.ts`); each day
 * prints one `dead-ends walk:` line that the bench sums.
 */
import { expect } from '@open-wc/testing';
import '../../src/index.js';
import { walkVenue } from '../support/dead-ends.js';
import { newStack } from '../support/widget-page.js';

/** The sandbox's clock: Monday 16 March 2026, 10:00 in London. */
const NOW = '2026-03-16T10:00';
const VENUES = ['64a1f0c2e4b0a1b2c3d4e501', '64a1f0c2e4b0a1b2c3d4e502', '64a1f0c2e4b0a1b2c3d4e503'];
/** The next fourteen days after the clock's. */
const DAYS = Array.from({ length: 14 }, (_, index) =>
  new Date(Date.UTC(2026, 2, 17 + index)).toISOString().slice(0, 10),
);

describe('no dead ends over two weeks', () => {
  afterEach(() => sessionStorage.clear());

  for (const venue of VENUES)
    for (const day of DAYS)
      it(`venue …${venue.slice(-3)} on ${day}`, async function () {
        this.timeout(600_000);
        const stack = await newStack({ sandbox: { now: NOW }, proxy: { unlimited: true } });
        const report = await walkVenue(stack, venue, [day], NOW);
        console.log(`dead-ends walk: ${venue} ${day} ${report.screens} screens ${JSON.stringify(report.deadEnds)}`);
        expect(report.deadEnds).to.deep.equal([]);
      });
});
