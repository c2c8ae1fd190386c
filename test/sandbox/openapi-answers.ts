/**
 * Every answer the sandbox gives its own test suite is checked against the sandbox's OpenAPI
 * document: `helpers.ts` runs each response through {@link checkAnswer}. A 200 must come from an
 * operation the document lists and match its schema; an error must match the document's error
 * answer. So the document cannot drift from what the sandbox really sends.
 */
import assert from 'node:assert/strict';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { openApiDocument } from '../../sandbox/openapi.js';

const DOC_ID = 'https://sandbox.test/v4/openapi.json';
const document = openApiDocument('http://sandbox.test') as {
  paths: Record<string, Record<string, { responses: Record<string, any> }>>;
  components: { responses: Record<string, any> };
};

// OpenAPI 3.1 schemas are JSON Schema 2020-12; the document's other keywords (paths, info) are not schemas.
const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addFormat('uri', (value: string) => URL.canParse(value));
ajv.addSchema({ ...document, $id: DOC_ID });

/** The document's path templates as patterns, so a request path finds its operation. */
const TEMPLATES = Object.keys(document.paths).map((template) => ({
  template,
  pattern: new RegExp(`^/v4${template.replace(/\{\w+\}/g, '[^/]+')}$`),
}));

/** A JSON pointer segment. */
const pointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/** How many answers were checked (a test asserts the hook really ran). */
export const checked = { answers: 0 };

/** The document's answer for a status: its own entry, else the `4XX`/`5XX` range; `$ref`s followed. */
function responseFor(responses: Record<string, any>, status: number): { answer: any; where: string } | null {
  for (const key of [String(status), `${String(status)[0]}XX`]) {
    const answer = responses[key];
    if (!answer) continue;
    if (answer.$ref) {
      const name = (answer.$ref as string).split('/').pop()!;
      return { answer: document.components.responses[name], where: `#/components/responses/${pointer(name)}` };
    }
    return { answer, where: key };
  }
  return null;
}

/**
 * Checks one answer against the document. Requests outside `/v4` (the hosted page, the controls)
 * and the document itself are not part of the interface and pass unchecked.
 */
export async function checkAnswer(request: Request, response: Response): Promise<void> {
  const path = new URL(request.url).pathname;
  if (!path.startsWith('/v4/') || path === '/v4/openapi.json') return;
  const method = request.method.toLowerCase();
  const route = TEMPLATES.find((t) => t.pattern.test(path));
  const operation = route ? document.paths[route.template]![method] : undefined;
  const status = response.status;
  if (status === 200)
    assert.ok(operation, `200 for ${request.method} ${path}, which the OpenAPI document does not list`);
  // An unknown route or method answers with the document's error answer (any operation's is the same).
  const responses = operation?.responses ?? { '4XX': { $ref: '#/components/responses/Error' } };
  const found = responseFor(responses, status);
  assert.ok(found, `${status} for ${request.method} ${path} is not in the OpenAPI document`);
  const contentType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
  const content = found.answer.content?.[contentType];
  assert.ok(content, `${status} ${contentType} for ${request.method} ${path} is not in the OpenAPI document`);
  checked.answers++;
  if (contentType !== 'application/json') return;
  const where = found.where.startsWith('#')
    ? `${DOC_ID}${found.where}/content/application~1json/schema`
    : `${DOC_ID}#/paths/${pointer(route!.template)}/${method}/responses/${found.where}/content/application~1json/schema`;
  const validate = ajv.getSchema(where);
  assert.ok(validate, `no schema at ${where}`);
  const body = await response.json();
  if (!validate(body)) {
    assert.fail(
      `${request.method} ${path} → ${status} does not match the OpenAPI document: ${ajv.errorsText(validate.errors, { separator: '\n' })}\n${JSON.stringify(body).slice(0, 600)}`,
    );
  }
}
