/**
 * The hand-off's money terms in every language the widget has (issue 37): each locale says them in
 * its own words, and none calls the card check a hold (the service's card check takes no money).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { enGB } from '../../src/i18n/en-GB.js';
import { enGBLater } from '../../src/i18n/en-GB-later.js';
import { localeModules } from '../../src/i18n/index.js';

/** "Hold" and its translations (a pre-authorisation that reserves money on the card), by language. */
const HOLD: Record<string, RegExp> = {
  en: /\bhold|\bheld|pre-?authori/i,
  fr: /\bhold|bloqu|retenu|empreinte|pré-?autoris/i,
  de: /\bhold|blockier|vorgemerkt|reserviert|vorautoris/i,
  es: /\bhold|bloque|retenc|retenid|preautoriz/i,
  nl: /\bhold|blokk|vastgehouden|gereserveerd|pre-?autoris/i,
};

const KEYS = ['handoffIntro', 'handoffPayment', 'handoffPreorders', 'handoffEnquiry', 'handoffPolicy'] as const;

describe('the hand-off’s money terms', () => {
  it('every language has its own words for them, and none says "hold"', async () => {
    const locales = { en: { ...enGBLater, ...enGB } } as Record<string, Record<string, unknown>>;
    for (const [language, load] of Object.entries(localeModules)) locales[language] = (await load()).strings;
    assert.deepEqual(Object.keys(locales).sort(), Object.keys(HOLD).sort());
    for (const [language, strings] of Object.entries(locales))
      for (const key of KEYS) {
        const text = strings[key];
        assert.equal(typeof text, 'string', `${language} ${key}`);
        assert.doesNotMatch(text as string, HOLD[language]!, `${language} ${key}`);
        if (language !== 'en') assert.notEqual(text, locales.en![key], `${language} ${key} is translated`);
      }
  });
});
