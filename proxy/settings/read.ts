/**
 * Reading the registry's rows: a setting from an environment, a row's default, a scope's rows read
 * and resolved in one walk, and the types mapped from the rows, so that config.ts and env.ts name
 * no setting one by one.
 */
import type { ListParser, Parser } from './parsers.js';
import { SETTINGS } from './registry.js';
import type { Registry, Setting, SettingScope } from './row.js';

/** The name a setting is read under. */
export type SettingKey = keyof typeof SETTINGS;
/** A row of the registry, with its literal types. */
type Row<K extends SettingKey> = (typeof SETTINGS)[K];
/** The value a setting's parser gives. */
export type SettingValue<K extends SettingKey> = Row<K>['parse'] extends Parser<infer T> ? T : never;
/** An environment variable the proxy reads. */
export type SettingEnvName = Row<SettingKey>['env'];

/** Whether a row's scope is one of `S`. */
type In<K extends SettingKey, S extends SettingScope> = Row<K>['scope'] extends S ? true : false;
/** Whether `ProxyConfig` requires a row. */
type IsRequired<K extends SettingKey> = Row<K> extends { required: true } ? true : false;
/**
 * `K` when it is a row of scopes `S` that lands under its own name (and is required or not, as
 * `R`), else never. A filter, not a renaming, so the mapped field keeps the row's doc comment.
 */
type Own<K extends SettingKey, S extends SettingScope, R extends boolean = boolean> =
  In<K, S> extends true ? (Row<K> extends { field: string } ? never : IsRequired<K> extends R ? K : never) : never;
/** The field a row of scopes `S` lands in when it is not its key (`operatorPages.token`), else never. */
type Moved<K extends SettingKey, S extends SettingScope> =
  In<K, S> extends true ? (Row<K> extends { field: infer F extends string } ? F : never) : never;

/**
 * What a row resolves to: its value, else its default, else its parser's empty value (a list),
 * else null. Read-only, as the resolved config is.
 */
export type ResolvedValue<K extends SettingKey> =
  | Readonly<SettingValue<K>>
  | (Row<K> extends { default: string } ? never : Row<K>['parse'] extends ListParser<unknown> ? never : null);

/**
 * The rows of scopes `S` as the fields a caller sets: required ones as such, the rest optional.
 * Mapped over `keyof typeof SETTINGS` (homomorphic: not an alias of it), so each field shows its
 * row's doc comment.
 */
export type ScopeFields<S extends SettingScope> = {
  [K in keyof typeof SETTINGS as Own<K, S, true>]: SettingValue<K>;
} & {
  [K in keyof typeof SETTINGS as Own<K, S, false>]?: SettingValue<K>;
} & { [K in keyof typeof SETTINGS as Moved<K, S>]?: SettingValue<K> };

/** The rows of scopes `S` that an environment sets, parsed, by field. */
export type ReadScope<S extends SettingScope> = { [K in keyof typeof SETTINGS as Own<K, S>]?: SettingValue<K> } & {
  [K in keyof typeof SETTINGS as Moved<K, S>]?: SettingValue<K>;
};

/** The rows of scopes `S`, every one resolved (see `ResolvedValue`). */
export type ResolvedScope<S extends SettingScope> = { [K in keyof typeof SETTINGS as Own<K, S>]: ResolvedValue<K> } & {
  [K in keyof typeof SETTINGS as Moved<K, S>]: ResolvedValue<K>;
};

/** The rows of scopes `S` with a default, and the default's value. */
export type Defaults<S extends SettingScope> = {
  [K in keyof typeof SETTINGS as Row<K> extends { default: string } ? Own<K, S> : never]: SettingValue<K>;
};

/** The environment the proxy reads (Node's `process.env`, a Worker's `env`): its variables, all optional. */
export type ProxyEnv = Partial<Record<SettingEnvName, string>> & { [name: string]: unknown };

/** The trimmed text of a row in `env` ('' when unset or not text). */
function rawOf(env: ProxyEnv, setting: Setting): string {
  const value = env[setting.env];
  return typeof value === 'string' ? value.trim() : '';
}

/** A row's value in `env`, parsed; undefined when unset (or bad: then `problems` says why). */
function readRow(env: ProxyEnv, setting: Setting, problems: string[]): unknown {
  const raw = rawOf(env, setting);
  return raw ? setting.parse(raw, setting.env, problems) : undefined;
}

/** A row's default value, its default text parsed; undefined without one. */
function defaultValue(setting: Setting): unknown {
  if (setting.default === undefined) return undefined;
  const problems: string[] = [];
  const value = setting.parse(setting.default, setting.env, problems);
  if (problems.length) throw new Error(problems.join('; '));
  return value;
}

/** A setting's value in `env`, parsed; undefined when unset (or bad: then `problems` says why). */
export function readSetting<K extends SettingKey>(
  env: ProxyEnv,
  key: K,
  problems: string[],
): SettingValue<K> | undefined {
  return readRow(env, SETTINGS[key], problems) as SettingValue<K> | undefined;
}

/** A setting's default value: its default text, parsed (so it is what an operator typing it would get). */
export function defaultOf<K extends SettingKey>(key: K): SettingValue<K> {
  const value = defaultValue(SETTINGS[key]);
  if (value === undefined) throw new Error(`${SETTINGS[key].env} has no default`);
  return value as SettingValue<K>;
}

/** A setting's value in `env`, or its default. */
export function settingOr<K extends SettingKey>(env: ProxyEnv, key: K, problems: string[]): SettingValue<K> {
  return readSetting(env, key, problems) ?? defaultOf(key);
}

/** The environment variable of a setting, for messages that name it. */
export const envName = (key: SettingKey): string => SETTINGS[key].env;

/** Every setting of `rows`, in order, with its key. */
export function settingRows(rows: Registry = SETTINGS): (Setting & { key: string })[] {
  return Object.entries(rows).map(([key, setting]) => ({ key, ...setting }));
}

/** The rows of `scopes`, in order, with the field each lands in. */
function rowsIn(rows: Registry, scopes: readonly SettingScope[]): (Setting & { key: string; field: string })[] {
  return settingRows(rows).flatMap((row) =>
    scopes.includes(row.scope) ? [{ ...row, field: row.field ?? row.key }] : [],
  );
}

/**
 * The rows of `scopes` that `env` sets, parsed, by field: an unset one is absent, so that its
 * default applies at resolution (and a config read from the environment shows what was set).
 */
export function readScope<S extends SettingScope>(
  env: ProxyEnv,
  scopes: readonly S[],
  problems: string[],
  rows: Registry = SETTINGS,
): ReadScope<S> {
  const values: Record<string, unknown> = {};
  for (const row of rowsIn(rows, scopes)) {
    const value = readRow(env, row, problems);
    if (value !== undefined) values[row.field] = value;
  }
  return values as ReadScope<S>;
}

/** Every row of `scopes` resolved from `values` (by field): the value, else the default, the parser's empty value or null. */
export function resolveScope<S extends SettingScope>(
  values: object,
  scopes: readonly S[],
  rows: Registry = SETTINGS,
): ResolvedScope<S> {
  const given = values as Record<string, unknown>;
  const resolved: Record<string, unknown> = {};
  for (const row of rowsIn(rows, scopes))
    resolved[row.field] =
      given[row.field] ?? defaultValue(row) ?? (row.parse as Partial<ListParser<unknown>>).empty ?? null;
  return resolved as ResolvedScope<S>;
}

/** The defaults of the rows of `scopes`, each parsed from its text. */
export function defaultsOf<S extends SettingScope>(scopes: readonly S[], rows: Registry = SETTINGS): Defaults<S> {
  return Object.fromEntries(
    rowsIn(rows, scopes).flatMap((row) => (row.default === undefined ? [] : [[row.key, defaultValue(row)]])),
  ) as Defaults<S>;
}
