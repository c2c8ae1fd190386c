/**
 * The studio's "Put your booking page on Google" step: the link to paste into the venue's Google
 * Business Profile as its booking (reservations) link, and what Google asks of the page it opens,
 * in plain words. Google's business links policy wants a page for that one location where the
 * guest can complete the booking, with no sign-in, not a social page, a chat or a shortened link,
 * and checks the link before and after it shows it: the booking page (`/book/<id>`) is such a page,
 * and tells Google so in its structured data (pages/structured-data.ts).
 *
 * One venue, one link: Google asks for a location's own page, so a group (or several venues
 * ticked) gets each venue's own link, by name, never the group's.
 */
import { isLoopback } from '../guards/validate.js';
import { escapeHtml } from './page.js';
import type { WidgetSettings } from './snippet.js';
import { venueName, type StudioOffer } from './studio-form.js';

/** The venues the chosen widget books for, by name: a group's, else those ticked. */
function venuesOf(choices: WidgetSettings, offer: StudioOffer): { id: string; name: string }[] {
  const ids = choices.group
    ? (offer.groups.find((group) => group.id === choices.group)?.venues.map((venue) => venue.id) ?? [])
    : choices.venues;
  return ids.map((id) => {
    const known = offer.venues.find((venue) => venue.id === id) ??
      offer.groups.flatMap((group) => group.venues).find((venue) => venue.id === id) ?? { id, title: null };
    return { id, name: venueName({ id, title: known.title, types: [] }) };
  });
}

/**
 * The step's HTML (the part the studio's script redraws as the form changes); `linkOf` is a
 * venue's booking page link with the look chosen (the studio's `bookingLink`), at `base`.
 */
export function googleStep(
  choices: WidgetSettings,
  offer: StudioOffer,
  base: string,
  linkOf: (venue: string) => string,
): string {
  const venues = venuesOf(choices, offer);
  const links = venues.map(({ id, name }, index) => {
    const link = linkOf(id);
    const label = venues.length > 1 ? `The link for ${name}` : 'The link to paste';
    return `<p><label for="google-link-${index}">${escapeHtml(label)}</label><input type="url" id="google-link-${index}" class="google-link" readonly value="${escapeHtml(link)}" data-venue="${escapeHtml(id)}"></p>`;
  });
  const local = isLoopback(new URL(base).hostname)
    ? '<p class="warning">This link names this computer, which Google cannot open. Your web person sets the booking service’s public address (<code>VENUE_BOOKING_PUBLIC_URL</code>); the link here follows it.</p>'
    : '';
  const several =
    venues.length > 1
      ? '<p class="note">Google wants a page for each place: give each venue’s Business Profile its own link, not the group’s.</p>'
      : '';
  return `<div id="google"><p>When guests find you on Google Search or Maps, your Business Profile can show a button that opens your booking page, so they book with you directly. Google calls it a booking link (for restaurants, a reservations link).</p>
${links.join('\n')}${several}${local}
<ol><li>On a computer, sign in with the Google account that manages your Business Profile, then search Google for your venue’s name (or open <a href="https://business.google.com/">business.google.com</a>).</li>
<li>Choose <em>Edit profile</em>, then the links for bookings: <em>Bookings</em> or <em>Reservations</em>, under <em>Contact</em> or on the <em>Menu &amp; bookings</em> tab (Google moves and renames these now and then).</li>
<li>Paste the link, make it your preferred one if Google lists others, and <em>Save</em>. Google checks a new link before it shows it, which can take a few days; your profile must be verified.</li></ol>
<h3>What Google asks of the page</h3>
<ul><li><strong>A page for this venue</strong>: the link opens your own booking page, with your venue’s name, address and phone, not a page for all your venues.</li>
<li><strong>The booking can be finished there</strong>: guests choose, give their details and book on the page itself.</li>
<li><strong>No sign-in</strong>: anyone can book without an account or an app.</li>
<li><strong>The link as it is</strong>: not a social media page, a chat or a shortened link. Keep your booking page working: Google checks the link again from time to time and removes it if it stops working.</li></ul>
<p class="note">The page also tells Google, in the form it reads (structured data), that you take reservations there, with the address and phone saved under <a href="#venue-title">Your venue</a>: fill them in there so Google and your guests see the same.</p></div>`;
}
