/**
 * The page a guest sees when the return bridge (api/return-bridge.ts) cannot send them back to the
 * venue's page (no allowed page to go to, an unknown venue, a return without a reference): the
 * booking site has already taken the booking, often with a deposit, so the guest gets a readable
 * page with the reference and a way back, never the API's JSON. The bridge decides what happened
 * (`ReturnOutcome`); the route table (proxy/routes.ts) hands it this page to say it, since the API
 * never imports a page.
 *
 * In the page words (pages/words/) of the widget's language (`lang` on the return URL), else of
 * the browser's; a sealed page in the frame (page.ts): any site can send a guest here.
 */
import type { ReturnOutcome } from '../api/return-bridge.js';
import { escapeHtmlNumeric as escape, sealedPageResponse } from './page.js';
import { PAGE_LANGUAGES, pageWords, type PageWords } from './words/index.js';

/**
 * The return page's words by language, for the test that keeps its titles and `reference` in step
 * with the widget's (test/proxy/return-bridge.test.ts).
 */
export const RETURN_PAGE_STRINGS: Readonly<Record<string, PageWords['returnPage']>> = Object.fromEntries(
  [...PAGE_LANGUAGES].map(([language, words]) => [language, words.returnPage]),
);

const STYLE =
  'body{font-family:system-ui,sans-serif;color:#1d2430;background:#f6f4ef;margin:0}' +
  'main{max-width:32rem;margin:2rem auto;padding:1.5rem;background:#fff;border-radius:.75rem}' +
  'h1{font-size:1.4rem;margin:0 0 1rem}strong{font-size:1.2rem}a{color:#1f5f8b}';

/**
 * The readable page: 200 when it shows a reference (the booking stands, only the way back failed)
 * or an unproven return (the booking site confirms by email), 400 when the return had no
 * reference. No script, no referrer, not stored, not framed elsewhere.
 */
export async function returnPageResponse(outcome: ReturnOutcome): Promise<Response> {
  const words = pageWords(outcome.lang, ...(outcome.acceptLanguage ?? '').split(',').slice(0, 10));
  const s = words.returnPage;
  const { back } = outcome;
  const reference = outcome.unproven ? null : outcome.reference;
  const title = reference ? (outcome.confirmed ? s.confirmedTitle : s.enquiryTitle) : s.unknownTitle;
  const body =
    `<main><h1>${escape(title)}</h1>` +
    (reference
      ? `<p>${escape(s.reference)}: <strong>${escape(reference)}</strong></p><p>${escape(s.kept)}</p>`
      : `<p>${escape(outcome.unproven ? s.byEmail : s.noReference)}</p>`) +
    `<p>${escape(s.notBack)}</p>` +
    (back ? `<p><a href="${escape(back.href)}">${escape(s.back(back.host))}</a></p>` : '') +
    '</main>';
  return sealedPageResponse(body, {
    title,
    words,
    status: reference || outcome.unproven ? 200 : 400,
    css: STYLE,
  });
}
