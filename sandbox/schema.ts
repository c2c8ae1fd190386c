/**
 * Parameter rules as data: the kind of each parameter a route reads, and the JSON Schema of a kind.
 *
 * Why: the routes' rule tables (availability fields, the POST /bookings fields, the update rules,
 * the search filters, …) name each parameter's kind here, and the OpenAPI document is built from
 * those same tables, so the document cannot say one thing while the sandbox checks another.
 */

/** A JSON Schema (2020-12, the dialect of OpenAPI 3.1). */
export type JsonSchema = Record<string, unknown>;

/** The forms a parameter takes on the wire. */
export type Kind =
  | 'text'
  | 'hexId'
  | 'int'
  | 'number'
  | 'duration'
  | 'date'
  | 'time'
  | 'datetime'
  | 'bool'
  | 'ids'
  | 'range'
  | 'choice'
  | 'objects';

/** One parameter of a route, as its rule table declares it. */
export interface ParamDoc {
  kind: Kind;
  /** One line for the interface document. */
  doc: string;
  required?: boolean;
  /** Text: the longest value accepted. */
  max?: number;
  /** `choice`: the values accepted. */
  choices?: readonly string[];
  /** `objects`: the schema of one item. */
  item?: JsonSchema;
}

/** A parameter table: name → rule. */
export type ParamTable = Record<string, ParamDoc>;

const DATE = '^\\d{4}-\\d{2}-\\d{2}(T00:00(:00)?)?$';
const TIME = '^([01]\\d|2[0-3]):[0-5]\\d$';

/**
 * The schema of a parameter. Values are described as the sandbox reads them: numbers and booleans
 * may also come as their text (a query string or a form has nothing else), lists as arrays or a
 * comma-separated string.
 */
export function schemaOf(p: ParamDoc): JsonSchema {
  const described = (schema: JsonSchema) => ({ ...schema, description: p.doc });
  switch (p.kind) {
    case 'text':
      return described({ type: 'string', ...(p.max ? { maxLength: p.max } : {}) });
    case 'hexId':
      return described({ type: 'string', pattern: '^[0-9a-f]{24}$' });
    case 'int':
      return described({ type: ['integer', 'string'], ...{ pattern: '^\\s*-?\\d+\\s*$' } });
    case 'number':
    case 'duration':
      return described({ type: ['number', 'string'] });
    case 'date':
      return described({ type: 'string', pattern: DATE });
    case 'time':
      return described({ type: 'string', pattern: TIME });
    case 'datetime':
      return described({ type: ['string', 'null'] });
    case 'bool':
      return described({ type: ['boolean', 'string'], enum: [true, false, 'true', 'false', '1', '0'] });
    case 'ids':
      return described({ type: ['array', 'string'], items: { type: 'string' } });
    case 'range':
      return described({ type: 'string', examples: ['1 TO 5', '* TO 2026-03-31', '12:00 TO 17:00'] });
    case 'choice':
      return described({ type: 'string', enum: [...(p.choices ?? [])] });
    case 'objects':
      return described({ type: 'array', items: p.item ?? {} });
  }
}
