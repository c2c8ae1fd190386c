/**
 * Upstream refusals in the proxy's own words. The service's error text is not ours to show: it has
 * carried internal paths, and it is unpublished, so it may carry anything. The guest gets a
 * message chosen here by error code (field errors keep their `code` and `fields`, which the widget
 * and partners act on); the original text goes to the server log only.
 */
import { label, type FieldError } from '../core/envelope.js';
import type { Logger } from '../core/log.js';

const CHOOSE_AGAIN = 'The venue does not take bookings for this choice. Please choose another date or time.';

/** What the proxy says for the codes the service is known to send (see the sandbox and live notes). */
const BY_CODE: Record<string, string> = {
  full: 'This time is fully booked. Please choose another time.',
  date_passed: 'This date has passed. Please choose another date.',
  time_passed: 'This time has passed. Please choose another time.',
  venue_closed: CHOOSE_AGAIN,
  date_unavailable: CHOOSE_AGAIN,
  type_not_on_day: CHOOSE_AGAIN,
  past_closing: CHOOSE_AGAIN,
  bookings_shut: CHOOSE_AGAIN,
  bookings_unavailable: CHOOSE_AGAIN,
  no_private_hire: CHOOSE_AGAIN,
  offer_not_available: 'This offer is not available for this booking.',
  offer_not_applicable: 'This offer is not available for this booking.',
  web_required: "This booking has to be finished on the venue's booking page.",
};

const CODE_RE = /^[A-Za-z0-9_.-]{1,60}$/;
const FIELD_RE = /^[A-Za-z0-9_.[\]-]{1,60}$/;

/** The proxy's message for one field error. */
function messageFor(code: string, fields: string[]): string {
  if (BY_CODE[code]) return BY_CODE[code];
  const names = fields.map(label).join(', ');
  if (!names) return 'The booking service refused these details.';
  return code.startsWith('missing_') ? `${names}: please fill this in.` : `${names}: please check this.`;
}

/**
 * An upstream error payload as the guest may see it: `{ message, errors }` in the proxy's words.
 * `fallback` is the message when no field error explains the refusal. The upstream's own text is
 * logged (truncated) as `detail`, with the route and status, for the operator.
 */
export function guestError(
  payload: unknown,
  fallback: string,
  logger: Logger,
  where: { route: string; status: number },
): { message: string; errors: FieldError[] } {
  const source = payload && typeof payload === 'object' ? (payload as { message?: unknown; errors?: unknown }) : {};
  const errors = (Array.isArray(source.errors) ? source.errors.slice(0, 20) : []).flatMap((error): FieldError[] => {
    if (!error || typeof error !== 'object') return [];
    const { code, fields } = error as Record<string, unknown>;
    const safeCode = typeof code === 'string' && CODE_RE.test(code) ? code : 'error';
    const safeFields = Array.isArray(fields)
      ? fields.filter((field): field is string => typeof field === 'string' && FIELD_RE.test(field)).slice(0, 10)
      : [];
    return [{ code: safeCode, message: messageFor(safeCode, safeFields), fields: safeFields }];
  });
  logger.log({
    level: 'warn',
    msg: 'upstream refused',
    route: where.route,
    upstreamStatus: where.status,
    detail: JSON.stringify({ message: source.message, errors: source.errors }).slice(0, 500),
  });
  return { message: errors.length === 1 ? errors[0]!.message : fallback, errors };
}
