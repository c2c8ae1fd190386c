/**
 * The shape of a row of the settings registry (registry.ts), apart from the rows themselves so
 * that the registry holds data only.
 */
import type { Parser } from './parsers.js';

/**
 * Where a row's value lands, which also says who reads it:
 *
 * - `credentials`: a `ProxyConfig` field, read from an environment only all together (env.ts) and
 *   resolved by hand (the upstream's base, the logger that redacts the key);
 * - `proxy`: a `ProxyConfig` field, and the `ResolvedConfig` field of the same name with the
 *   default filled (else the parser's empty value, else null);
 * - `derived`: a `ProxyConfig` field read only by values resolveConfig derives from several
 *   settings (the budget's shares, the public URL's origin and base);
 * - `operatorPages`: a field of `ProxyConfig.operatorPages` (`field`), resolved like `proxy`;
 * - `node`, `redis`: the Node entry's own settings (`NodeSettings`, `RedisSettings`), never in
 *   `ProxyConfig`;
 * - `worker`: a binding a Worker's runtime hands over, never text.
 */
export type SettingScope = 'credentials' | 'proxy' | 'derived' | 'operatorPages' | 'node' | 'redis' | 'worker';

/** One setting. */
export interface Setting<T = unknown> {
  /** The environment variable (a Worker's var or secret, or binding for `worker`). */
  env: string;
  /** The Node flag, without `--`; none: environment only. */
  flag?: string;
  /** What the flag's value is called in `--help` (`N`, `URL`, …). */
  arg?: string;
  scope: SettingScope;
  /** The field the value lands in within its scope, when not the row's key (`operatorPages.token`). */
  field?: string;
  /** `ProxyConfig` cannot go without it (the credentials, the venue list). */
  required?: boolean;
  parse: Parser<T>;
  /** The default as an operator would write it; none when unset means something else (`defaultDoc`). */
  default?: string;
  /** The default in words, when it is derived or is an absence. */
  defaultDoc?: string;
  /** The unit of a number (`ms`, `requests per minute`, …). */
  unit?: string;
  /** One line of doc (Markdown: the settings page shows it as is, `--help` without the marks). */
  doc: string;
}

/** A settings registry: rows by the name the code reads them under. Tests pass one with a row more. */
export type Registry = Readonly<Record<string, Setting>>;
