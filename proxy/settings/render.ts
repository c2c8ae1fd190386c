/**
 * What operators read, rendered from the settings registry's rows: `venue-booking-proxy --help`,
 * the Node flags, and the settings table (docs/operators/settings.md) (`npm run docs`, scripts/settings-table.ts). Each
 * takes the rows to render, so a test can render the registry with a row more.
 */
import { settingRows } from './read.js';
import { SETTINGS } from './registry.js';
import type { Registry, Setting, SettingScope } from './row.js';

/** Markdown marks and links out of a doc line, for a terminal. */
const plain = (doc: string) => doc.replace(/\[([^\]]+)\]\([^)]*\)/g, '$1').replace(/[`*]/g, '');

/** Wraps `text` to lines of `width` columns, every line after the first indented by `indent`. */
function wrap(text: string, width: number, indent: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line].join(`\n${indent}`);
}

/** What a row's default reads as, for the help and the settings page. */
function defaultText(setting: Setting, markdown: boolean): string {
  if (setting.default !== undefined) {
    const value = markdown ? `\`${setting.default}\`` : setting.default;
    return setting.unit ? `${value} (${setting.unit})` : value;
  }
  return setting.defaultDoc ?? '—';
}

/** Whether the help names a row's default: a value, or one described in words (a `—`, none, is left out). */
const shownDefault = (setting: Setting) =>
  setting.default !== undefined || (setting.defaultDoc !== undefined && !setting.defaultDoc.startsWith('—'));

/** `venue-booking-proxy --help`: the flags, then what is read from the environment only. */
export function helpText(registry: Registry = SETTINGS): string {
  const rows = settingRows(registry).filter((row) => row.scope !== 'worker');
  const flagged = rows.filter((row) => row.flag);
  const flagLine = (row: (typeof rows)[number]) => {
    const head = `  --${row.flag} ${row.arg ?? 'VALUE'}`.padEnd(30);
    const tail = `${plain(row.doc)} [${row.env}${shownDefault(row) ? `, default ${plain(defaultText(row, false))}` : ''}]`;
    return `${head} ${wrap(tail, 70, ' '.repeat(31))}`;
  };
  const envLine = (row: (typeof rows)[number]) =>
    `  ${row.env}\n${' '.repeat(31)}${wrap(
      `${plain(row.doc)}${shownDefault(row) ? ` [default ${plain(defaultText(row, false))}]` : ''}`,
      70,
      ' '.repeat(31),
    )}`;
  return [
    'Usage: venue-booking-proxy [flags]',
    '',
    'Flags (each overrides the environment variable in brackets):',
    ...flagged.map(flagLine),
    '',
    'Environment only (credentials, Redis, the operator pages, the budget and TTLs):',
    ...rows.filter((row) => !row.flag).map(envLine),
    '',
    'With neither credential set the proxy runs on the embedded sandbox (no real bookings).',
  ].join('\n');
}

/** The flags the Node entry takes: flag → environment variable. */
export function flagMap(registry: Registry = SETTINGS): Record<string, string> {
  return Object.fromEntries(settingRows(registry).flatMap((row) => (row.flag ? [[row.flag, row.env]] : [])));
}

/** What the settings page says before the doc of a row that not every host reads. */
const SCOPE_NOTE: Record<SettingScope, string> = {
  credentials: '',
  proxy: '',
  derived: '',
  operatorPages: '',
  node: 'Node only: ',
  redis: 'Node only: ',
  worker: 'Workers only (binding): ',
};

/** The settings table (between its `settings-table` markers). */
export function settingsTable(registry: Registry = SETTINGS): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  const lines = settingRows(registry).map((row) => {
    const name = `\`${row.env}\`${row.flag ? ` [\`--${row.flag}\`]` : ''}`;
    return `| ${name} | ${cell(SCOPE_NOTE[row.scope] + row.doc)} | ${cell(defaultText(row, true))} |`;
  });
  return ['| Environment | Meaning | Default |', '|---|---|---|', ...lines].join('\n');
}
