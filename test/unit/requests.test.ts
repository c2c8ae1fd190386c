/**
 * Special requests (issue 37): the quick picks' phrases in the notes, the notes' limit the widget
 * says against the proxy's, and the notes in the calendar file (escaped and folded as RFC 5545 asks).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LIMITS } from '../../src/api/rules.js';
import { enGBLater } from '../../src/i18n/en-GB-later.js';
import { strings as de } from '../../src/i18n/de.js';
import { strings as es } from '../../src/i18n/es.js';
import { strings as fr } from '../../src/i18n/fr.js';
import { strings as nl } from '../../src/i18n/nl.js';
import { NOTES_MAX, togglePhrase } from '../../src/state/requests.js';
import { icsFile } from '../../src/venue/calendar-links.js';

describe('special requests', () => {
  it('says the limit the proxy holds notes to', () => {
    assert.equal(NOTES_MAX, LIMITS.notes);
  });

  it('adds a phrase on a line of its own, once, and takes it out with its line break', () => {
    assert.equal(togglePhrase('', 'Birthday'), 'Birthday');
    assert.equal(togglePhrase('  \n', 'Birthday'), 'Birthday');
    assert.equal(togglePhrase('Window table\n', 'Birthday'), 'Window table\nBirthday');
    assert.equal(togglePhrase('Window table\nBirthday', 'Birthday'), 'Window table');
    assert.equal(togglePhrase('Birthday\nWindow table', 'Birthday'), 'Window table');
    assert.equal(togglePhrase('A\nBirthday\nB', 'Birthday'), 'A\nB');
  });

  it('never has a phrase within another, in any language (a pick would show pressed for the other)', () => {
    for (const [language, { requests }] of Object.entries({ 'en-GB': enGBLater, de, es, fr, nl })) {
      assert.equal(requests.length, 5, language);
      for (const [, phrase] of requests)
        for (const [, other] of requests)
          assert.ok(phrase === other || !other.includes(phrase), `${language}: "${phrase}" in "${other}"`);
    }
  });

  it('escapes line breaks of every kind in the calendar file and folds its long lines at 75 octets', () => {
    const notes = `Reference: R1\r\n\r\nCafé; a, b \\ c\n${'é'.repeat(100)}`;
    const event = { reference: 'R1', title: 'Booking', date: '2026-03-17', time: '19:00', minutes: 120, location: '' };
    const file = icsFile({ ...event, description: notes }, new Date('2026-01-01T00:00:00Z'));
    for (const line of file.split('\r\n')) assert.ok(Buffer.byteLength(line) <= 75, line);
    assert.ok(!/\r(?!\n)/.test(file), 'no bare CR');
    const description = /DESCRIPTION:.*(?:\r\n .*)*/.exec(file)![0].replace(/\r\n /g, '');
    assert.equal(description, `DESCRIPTION:Reference: R1\\n\\nCafé\\; a\\, b \\\\ c\\n${'é'.repeat(100)}`);
  });
});
