/**
 * The quick picks beside the notes box (issue 37): a pick is a short phrase in the guest's language
 * that goes on a line of its own in the notes, where the guest can still edit it. A pick is pressed
 * while its phrase is in the notes, so an edit that removes the phrase un-presses it, and pressing
 * it again takes the phrase out rather than adding it twice. Pure text functions; they travel in
 * the later steps chunk (`later-steps.ts`) with the form.
 */

/**
 * The service's longest notes, in characters after trimming: the proxy's `LIMITS.notes`
 * (`api/rules.ts`), written out because this chunk imports nothing from the bundle; a unit test
 * holds the two equal.
 */
export const NOTES_MAX = 2000;

/** The notes with a pick's phrase taken out (with its line break) when it is there, else added on a new line. */
export function togglePhrase(notes: string, phrase: string): string {
  const at = notes.indexOf(phrase);
  if (at < 0) return notes.trim() ? `${notes.trimEnd()}\n${phrase}` : phrase;
  const before = notes.slice(0, at);
  const after = notes.slice(at + phrase.length);
  if (before.endsWith('\n')) return before.slice(0, -1) + after;
  return before + (after.startsWith('\n') ? after.slice(1) : after);
}
