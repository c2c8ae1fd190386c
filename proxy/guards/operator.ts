/**
 * Who may open the operator's pages (`/metrics`, `/status`, the embed studio `/embed`): a client on
 * this very machine, and anyone with the operator token. Pure: the guard list (guards/request.ts)
 * runs it on the request and the peer address the host passes along.
 *
 * "This very machine" is strict, because these pages tell how the proxy is doing and which sites
 * use it: the peer address is loopback, the request is addressed to a loopback host (so a page on
 * another site cannot reach it by DNS rebinding), it carries no header a reverse proxy adds (a
 * proxy on the same machine would otherwise make every visitor look local), and no reverse proxy
 * is declared (`loopback: false` when the Node entry trusts a client-address header).
 *
 * The token is sent as `Authorization: Bearer <token>` (Prometheus' `authorization` setting), or as
 * the password of HTTP Basic authentication, which a browser asks for by itself (any user name).
 */
import type { RequestUrl } from '../core/url.js';
import { isLoopback } from './validate.js';

/** The operator pages' settings. */
export interface OperatorSettings {
  /** The paths the pages answer at (with their files). */
  paths: ReadonlySet<string>;
  /** The pages a scraper asks for (a bearer challenge rather than a browser's password prompt). */
  scrape: ReadonlySet<string>;
  /** The token that opens them from anywhere; null: loopback only. */
  token: string | null;
  /** Whether a client on this machine may open them without the token. */
  loopback: boolean;
}

/** Headers a reverse proxy adds: a request that carries one came through a proxy, wherever it started. */
const FORWARDING = ['forwarded', 'x-forwarded-for', 'x-real-ip', 'cf-connecting-ip', 'true-client-ip', 'via'];

/** Whether a peer address is this machine's (IPv4 127/8, IPv6 ::1, and IPv4-mapped 127/8). */
export function isLoopbackAddress(address: string): boolean {
  const plain = address.toLowerCase().replace(/^::ffff:/, '');
  return /^127(?:\.\d{1,3}){3}$/.test(plain) || plain === '::1';
}

/** Equal strings, compared in time that depends on their lengths only (no early exit on the first difference). */
export function sameSecret(given: string, secret: string): boolean {
  let difference = given.length ^ secret.length;
  for (let i = 0; i < secret.length; i++)
    difference |= (given.charCodeAt(i % (given.length || 1)) || 0) ^ secret.charCodeAt(i);
  return difference === 0;
}

/** The token of an `Authorization` header: a bearer token, or a Basic password; null when neither. */
export function presentedToken(authorization: string | null): string | null {
  if (!authorization) return null;
  const [scheme, value] = authorization.trim().split(/\s+/, 2);
  if (!value) return null;
  if (scheme!.toLowerCase() === 'bearer') return value;
  if (scheme!.toLowerCase() !== 'basic') return null;
  try {
    const decoded = atob(value);
    return decoded.slice(decoded.indexOf(':') + 1);
  } catch {
    return null;
  }
}

/** What the operator rule reads of a request. */
export interface OperatorRequest {
  url: RequestUrl;
  header(name: string): string | null;
  /** The peer's address as the host saw it (the socket's); undefined where the host cannot tell. */
  peer?: string;
}

/** Whether a request may open an operator page. */
export function operatorAllowed(request: OperatorRequest, settings: OperatorSettings): boolean {
  if (settings.token !== null) {
    const token = presentedToken(request.header('authorization'));
    if (token !== null && sameSecret(token, settings.token)) return true;
  }
  return (
    settings.loopback &&
    request.peer !== undefined &&
    isLoopbackAddress(request.peer) &&
    isLoopback(request.url.hostname) &&
    FORWARDING.every((name) => request.header(name) === null)
  );
}
