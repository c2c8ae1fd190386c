/**
 * The React 19 JSX typings of `<venue-booking>` (src/react.ts, published as `venue-booking/react`),
 * rendered from the Custom Elements Manifest.
 *
 * The element's JSDoc is the one source, as for the element's reference tables (docs/reference/element.md) (scripts/api-tables.ts):
 * every public property, every attribute that is not also a property's name, and every `vb-*`
 * event becomes a JSX prop, so a partner's type glue is one `import type {} from 'venue-booking/react'`.
 * Property types are the class's own (`VenueBooking['guest']`): React 19 assigns a prop to the
 * element's property when the element has one, so the class's type is what the value must fit.
 * Attribute types come from the manifest: React 19 writes other props as attribute strings.
 * test/package/react-types.test.ts fails when the committed file and the manifest drift apart.
 *
 * Run: `node --import tsx scripts/react-types.ts [--write | --check]`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { analyze, elementOf, type Manifest } from './api-tables.js';

const root = fileURLToPath(new URL('..', import.meta.url));
/** The generated file, committed so that the build emits it into dist/lib like any module. */
export const REACT_TYPES = `${root}src/react.ts`;
/** The command that regenerates it, named wherever a drift is reported. */
export const COMMAND = 'npm run docs';

/**
 * The JSX type of an attribute's value, from the manifest's type text. Numbers may also be written
 * as digit strings (React writes attributes as strings anyway); a type the generator does not know
 * stops it, so a new kind of attribute is typed on purpose rather than loosely.
 */
function attributeValueType(text: string, name: string): string {
  const parts = text
    .split('|')
    .map((part) => part.trim())
    .filter((part) => part !== 'undefined' && part !== 'null');
  return parts
    .map((part) => {
      if (part === 'string' || part === 'boolean' || /^'[^']*'$/.test(part)) return part;
      if (part === 'number') return 'number | `${number}`';
      throw new Error(`react-types: attribute ${name} has a type the generator does not know: ${text}`);
    })
    .join(' | ');
}

/** A JSDoc comment (or nothing), wrapped at 100 columns: Prettier leaves comments as they are. */
function doc(text: string | undefined, indent = '  '): string {
  if (!text) return '';
  const words = text.replace(/\*\//g, '*\\/').split(/\s+/);
  if (indent.length + text.length + 7 <= 100) return `${indent}/** ${words.join(' ')} */\n`;
  const lines = [''];
  for (const word of words) {
    if (lines.at(-1) && indent.length + 3 + lines.at(-1)!.length + word.length >= 100) lines.push('');
    lines[lines.length - 1] += (lines.at(-1) ? ' ' : '') + word;
  }
  return `${indent}/**\n${lines.map((line) => `${indent} * ${line}\n`).join('')}${indent} */\n`;
}

/** The TypeScript source of src/react.ts, formatted as Prettier would. */
export async function renderReactTypes(manifest: Manifest, tag = 'venue-booking'): Promise<string> {
  const element = elementOf(manifest, tag);
  const properties = (element.members ?? []).filter(
    (member) =>
      member.kind === 'field' &&
      !member.static &&
      !member.readonly &&
      member.privacy !== 'private' &&
      member.privacy !== 'protected',
  );
  const propertyNames = new Set(properties.map((property) => property.name));
  const attributes = (element.attributes ?? []).filter((attribute) => !propertyNames.has(attribute.name));
  const events = element.events ?? [];

  const source = `/**
 * React 19 JSX typings for \`<${tag}>\`: every property, attribute and \`onvb-*\` event of the
 * element, so that one line in a React project types the tag:
 *
 *     import type {} from 'venue-booking/react';
 *
 * Generated from custom-elements.json by \`${COMMAND}\`:
 * edit the element's JSDoc, not this file (test/package/react-types.test.ts fails when they drift).
 */
import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import type { VenueBooking, VenueBookingEventDetails } from './index.js';

/** The element's properties: React 19 assigns them to the element, so objects and dates pass as they are. */
export interface VenueBookingProperties {
${properties.map((property) => `${doc(property.description)}  ${property.name}?: VenueBooking['${property.name}'];`).join('\n')}
}

/** Attributes that are not property names: React 19 writes these as attributes. */
export interface VenueBookingAttributes {
${attributes
  .map(
    (attribute) =>
      `${doc(attribute.description)}  '${attribute.name}'?: ${attributeValueType(attribute.type?.text ?? 'string', attribute.name)};`,
  )
  .join('\n')}
}

/** \`on<event>\`: React 19 listens to the element's event of that exact name. */
export interface VenueBookingEventProps {
${events
  .map(
    (event) =>
      `${doc(event.description)}  'on${event.name}'?: (event: CustomEvent<VenueBookingEventDetails['${event.name}']>) => void;`,
  )
  .join('\n')}
}

/**
 * What a handler under a misspelt \`onvb-*\` name receives: no event of the element. TypeScript
 * never rejects an unknown hyphenated JSX name, but through this type an inline handler that reads
 * its event (\`event.detail\`) fails to compile, naming this type.
 */
export interface NoSuchVenueBookingEvent {
  readonly 'not an event of <${tag}>: check the name against VenueBookingEventDetails': never;
}

/**
 * Every prop \`<${tag}>\` takes in React 19: the usual HTML ones (\`id\`, \`className\`, \`ref\`,
 * \`key\`, \`children\`…) and the element's own. The misspelt-event guard is a separate member of
 * the intersection, so it never applies to the real \`onvb-*\` props above.
 */
export type VenueBookingProps = Omit<
  DetailedHTMLProps<HTMLAttributes<VenueBooking>, VenueBooking>,
  keyof VenueBookingProperties | keyof VenueBookingAttributes
> &
  VenueBookingProperties &
  VenueBookingAttributes &
  VenueBookingEventProps & { [misspelt: \`onvb-\${string}\`]: (event: NoSuchVenueBookingEvent) => void };

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- React 19 declares its JSX types in this namespace
  namespace JSX {
    interface IntrinsicElements {
      '${tag}': VenueBookingProps;
    }
  }
}
`;
  return format(source, { ...(await resolveConfig(REACT_TYPES)), filepath: REACT_TYPES });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const mode = process.argv[2] ?? '--write';
  const rendered = await renderReactTypes(await analyze());
  if (mode === '--check') {
    const same = readFileSync(REACT_TYPES, 'utf8') === rendered;
    console.log(same ? 'src/react.ts matches custom-elements.json' : `src/react.ts is stale: run \`${COMMAND}\``);
    process.exit(same ? 0 : 1);
  }
  writeFileSync(REACT_TYPES, rendered);
  console.log('src/react.ts rewritten from the element’s JSDoc');
}
