/**
 * The studio's steps for the usual site builders, in plain words: where each can fail (roles,
 * plans, editors that strip scripts) and what to do then (the WordPress plugin, the booking page's
 * link). `plugin` is the WordPress plugin's address for the chosen venue, `page` the booking page.
 */
import { escapeHtml } from './page.js';

/** The steps, for the chosen venue's plugin and booking page. */
export function stepsOf(plugin: string, page: string): string {
  const link = `<a href="${escapeHtml(page)}">your booking page</a>`;
  return `<p>Wherever you put it, the widget books only once its site is allowed: open the page once, then use “Allow this site” under <a href="#sites">Sites allowed to show your booking widget</a>.</p>
<h3>WordPress</h3><ol><li><strong>Use the plugin</strong>: <a id="wordpress-plugin" href="${escapeHtml(plugin)}" download>download the plugin for this venue</a>, then in WordPress go to <em>Plugins → Add New → Upload Plugin</em>, choose the file and <em>Activate</em>.</li><li>Open the post or page where guests should book, add the <em>Venue booking</em> block (or type <code>[venue_booking]</code>) and publish. Authors can do this in their own posts; a new page needs an Editor or an Administrator.</li></ol>
<p class="note">Why the plugin: pasting the code into a <em>Custom HTML</em> block only works for Administrators. For Authors and Editors (and on many multisite networks) WordPress silently removes the script when the page is saved, even though the preview looked right; a <em>Paragraph</em> block removes it too. Uploading a plugin needs an Administrator, and WordPress.com only allows plugins on its Business plan or higher: without one, link to ${link} instead.</p>
<h3>Squarespace</h3><ol><li>Edit the page, add a block and choose <em>Code</em>; keep it on HTML and untick <em>Display Source</em>.</li><li>Paste the code and save.</li></ol>
<p class="note">Code blocks run scripts only on the Business plan or higher (and not on every older template). If the widget does not appear on the published page, add a button that links to ${link}.</p>
<h3>Wix</h3><ol><li><em>Add → Embed Code → Custom Element</em>; choose <em>Server URL</em> and enter the script’s address from the code to paste (the line with <code>venue-booking.js</code>); tag name <code>venue-booking</code>.</li><li>Under <em>Set attributes</em>, add each attribute of the <code>&lt;venue-booking …&gt;</code> line of the code (<code>venue</code>, <code>api</code> and the others) with its value.</li></ol>
<p class="note">Custom Elements need a paid Premium plan with a connected domain. Without one, or if the widget does not show, add a button that links to ${link}.</p>
<h3>Google Tag Manager</h3><ol><li><em>Tags → New → Custom HTML</em>; paste the code; fire it on the pages where guests book.</li><li>Tag Manager adds it at the end of the page: choose <em>A button that opens it</em> above, so the widget opens as a window wherever it lands.</li></ol>
<p class="note">Tag Manager needs someone who may publish changes in your Tag Manager account, and cookie banners or ad blockers may stop its tags: keep a link to ${link} on the page too.</p>
<h3>Any other website</h3><ol><li>Paste the code into the page’s HTML where the widget should appear.</li><li>Open that page once, then allow the site below with “Allow this site”.</li></ol>
<h3>Instagram, Google Business Profile, menus and newsletters</h3><p>Use the link and the QR code above: they need no website at all.</p>`;
}
