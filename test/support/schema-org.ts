/**
 * A schema.org checker for the JSON-LD the booking page writes, for tests. No structured-data
 * library is installed (none in node_modules, and the project adds none for a test), so the part of
 * schema.org's vocabulary the page uses is written down here from schema.org's own pages
 * (https://schema.org/<Name>, 2026): each type with its parent, each property with the types it is
 * used on (its domain) and the types it expects (its range). A node of an unknown type, a property
 * on a type outside its domain, or a value outside its range is a problem, said in a sentence.
 */

/** Each type this checker knows, with its parents (schema.org allows several). */
const TYPES: Record<string, readonly string[]> = {
  Thing: [],
  Place: ['Thing'],
  Organization: ['Thing'],
  Person: ['Thing'],
  Intangible: ['Thing'],
  StructuredValue: ['Intangible'],
  ContactPoint: ['StructuredValue'],
  PostalAddress: ['ContactPoint'],
  LocalBusiness: ['Organization', 'Place'],
  FoodEstablishment: ['LocalBusiness'],
  Restaurant: ['FoodEstablishment'],
  BarOrPub: ['FoodEstablishment'],
  CafeOrCoffeeShop: ['FoodEstablishment'],
  Action: ['Thing'],
  OrganizeAction: ['Action'],
  PlanAction: ['OrganizeAction'],
  ReserveAction: ['PlanAction'],
  EntryPoint: ['Intangible'],
  Country: ['Place'],
};

/** The members of DigitalPlatformEnumeration (https://schema.org/DigitalPlatformEnumeration). */
const PLATFORMS = ['AndroidPlatform', 'DesktopWebPlatform', 'GenericWebPlatform', 'IOSPlatform', 'MobileWebPlatform'];

/** A data type of schema.org, or a type's name. */
type Range = 'Text' | 'URL' | 'Boolean' | 'DigitalPlatformEnumeration' | keyof typeof TYPES;

/** Each property the page may use: the types it is used on and the values it expects. */
const PROPERTIES: Record<string, { domain: readonly string[]; range: readonly Range[] }> = {
  name: { domain: ['Thing'], range: ['Text'] },
  url: { domain: ['Thing'], range: ['URL'] },
  description: { domain: ['Thing'], range: ['Text'] },
  address: { domain: ['Place', 'Organization', 'Person'], range: ['PostalAddress', 'Text'] },
  telephone: { domain: ['Place', 'Organization', 'Person', 'ContactPoint'], range: ['Text'] },
  email: { domain: ['Organization', 'Person', 'ContactPoint'], range: ['Text'] },
  // "Values can be Boolean, an URL at which reservations can be made or (for backwards
  // compatibility) the strings Yes or No." Used on FoodEstablishment only.
  acceptsReservations: { domain: ['FoodEstablishment'], range: ['Boolean', 'URL', 'Text'] },
  potentialAction: { domain: ['Thing'], range: ['Action'] },
  target: { domain: ['Action'], range: ['EntryPoint', 'URL'] },
  // "An url template (RFC6570) that will be used to construct the target of the execution of the action."
  urlTemplate: { domain: ['EntryPoint'], range: ['Text'] },
  actionPlatform: { domain: ['EntryPoint'], range: ['DigitalPlatformEnumeration', 'Text', 'URL'] },
  streetAddress: { domain: ['PostalAddress'], range: ['Text'] },
  addressLocality: { domain: ['PostalAddress'], range: ['Text'] },
  addressRegion: { domain: ['PostalAddress'], range: ['Text'] },
  postalCode: { domain: ['PostalAddress', 'ContactPoint'], range: ['Text'] },
  addressCountry: { domain: ['PostalAddress'], range: ['Country', 'Text'] },
};

/** Whether `type` is `ancestor` or below it. */
function isA(type: string, ancestor: string): boolean {
  return type === ancestor || (TYPES[type] ?? []).some((parent) => isA(parent, ancestor));
}

const isUrl = (value: unknown) => typeof value === 'string' && URL.canParse(value) && /^https?:/.test(value);

/** Whether `value` is one of `range` (a node is checked on its own as well, by the walk). */
function fits(value: unknown, range: readonly Range[]): boolean {
  return range.some((expected) => {
    if (expected === 'Text') return typeof value === 'string';
    if (expected === 'URL') return isUrl(value);
    if (expected === 'Boolean') return typeof value === 'boolean';
    if (expected === 'DigitalPlatformEnumeration')
      return typeof value === 'string' && PLATFORMS.some((name) => value === `https://schema.org/${name}`);
    const type = (value as { '@type'?: unknown } | null)?.['@type'];
    return typeof type === 'string' && isA(type, expected);
  });
}

/** The problems of one node (an object with an `@type`) and of the nodes inside it. */
function nodeProblems(node: Record<string, unknown> | undefined, where: string): string[] {
  const type = node?.['@type'];
  if (typeof type !== 'string' || !Object.hasOwn(TYPES, type)) return [`${where}: unknown @type ${String(type)}`];
  return Object.entries(node!).flatMap(([name, value]) => {
    if (name.startsWith('@')) return [];
    const property = PROPERTIES[name];
    if (!property) return [`${where}: ${name} is not a property this checker knows`];
    if (!property.domain.some((domain) => isA(type, domain)))
      return [`${where}: ${name} is not a property of ${type} (it belongs to ${property.domain.join(', ')})`];
    return (Array.isArray(value) ? value : [value]).flatMap((item, index) => {
      const at = `${where}.${name}${Array.isArray(value) ? `[${index}]` : ''}`;
      if (!fits(item, property.range))
        return [`${at}: ${JSON.stringify(item)} is not a ${property.range.join(' or ')}`];
      return item && typeof item === 'object' ? nodeProblems(item as Record<string, unknown>, at) : [];
    });
  });
}

/** The problems of a JSON-LD document: its context, then each of its nodes (a `@graph`'s too). */
export function schemaProblems(document: unknown): string[] {
  const top = document as Record<string, unknown>;
  const problems: string[] = [];
  if (top?.['@context'] !== 'https://schema.org' && top?.['@context'] !== 'http://schema.org')
    problems.push(`@context is ${JSON.stringify(top?.['@context'])}, not schema.org`);
  const nodes = Array.isArray(top?.['@graph']) ? (top['@graph'] as Record<string, unknown>[]) : [top];
  nodes.forEach((node, index) =>
    problems.push(...nodeProblems(node, Array.isArray(top?.['@graph']) ? `@graph[${index}]` : 'the document')),
  );
  return problems;
}

/** Each `<script type="application/ld+json">` of `html`, parsed. */
export function jsonLdOf(html: string): unknown[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([^]*?)<\/script>/g)].map((match) =>
    JSON.parse(match[1]!),
  );
}
