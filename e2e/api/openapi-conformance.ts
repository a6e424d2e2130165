// Every answer the REST suite receives from /v1 is checked against the served OpenAPI document
// (GET /v1/openapi.json): its operation must exist, describe the status, the content type and,
// for JSON, a schema the body validates against. An answer the document does not describe fails
// the test that received it.
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { ValidateFunction } from "ajv";

type Json = Record<string, any>;
interface Route {
  template: string;
  pattern: RegExp;
  item: Json;
}

let loaded: Promise<{ doc: Json; routes: Route[] }> | undefined;
const compiled = new Map<string, ValidateFunction>();
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);

function routesOf(doc: Json): Route[] {
  const routes = Object.entries(doc.paths as Json).map(([template, item]) => ({
    template,
    item: item as Json,
    // A tile path spans segments ({path}); every other parameter is one segment.
    pattern: new RegExp(
      `^${template
        .replace(/[.]/g, "\\.")
        .replace(/\{path\}/g, ".+")
        .replace(/\{\w+\}/g, "[^/]+")}$`,
    ),
  }));
  // Literal paths before templated ones, so /v1/log/checkpoint is not taken for a parameter.
  return routes.sort((a, b) => (a.template.match(/\{/g)?.length ?? 0) - (b.template.match(/\{/g)?.length ?? 0));
}

/** The served document (fetched once per test file). */
export function openApiDocument(baseUrl: string): Promise<{ doc: Json; routes: Route[] }> {
  loaded ??= fetch(`${baseUrl}/v1/openapi.json`).then(async (res) => {
    if (res.status !== 200) throw new Error(`GET /v1/openapi.json answered ${res.status}`);
    const doc = (await res.json()) as Json;
    ajv.addSchema({ $id: "hallmark-openapi", components: doc.components ?? {} });
    return { doc, routes: routesOf(doc) };
  });
  return loaded;
}

/** Component refs (#/components/…) point into the document registered above. */
const rebase = (schema: unknown): unknown =>
  JSON.parse(JSON.stringify(schema).replace(/"\$ref":"#\/components\//g, '"$ref":"hallmark-openapi#/components/'));

function validatorFor(key: string, schema: unknown): ValidateFunction {
  let v = compiled.get(key);
  if (!v) {
    v = ajv.compile(rebase(schema) as object);
    compiled.set(key, v);
  }
  return v;
}

const mediaType = (value: string | null) => (value ?? "").split(";")[0]!.trim().toLowerCase();

/**
 * Throws when the document does not describe this answer. `path` may carry a query string;
 * only /v1 answers are checked (pages and /api have no OpenAPI description).
 */
export async function assertDescribed(
  baseUrl: string,
  method: string,
  path: string,
  status: number,
  headers: Headers,
  text: string,
): Promise<void> {
  const pathname = new URL(path, "http://x").pathname;
  if (!pathname.startsWith("/v1/") || method === "HEAD" || status === 499) return;
  const { routes } = await openApiDocument(baseUrl);
  const route = routes.find((r) => r.pattern.test(pathname));
  const operation = route?.item[method.toLowerCase()] as Json | undefined;
  const where = `${method} ${pathname} → ${status}`;
  let content: Json | undefined;
  if (!operation) {
    // No such path, or a method it does not serve: the document says these are 404 and 405 problems.
    const expected = !route ? [404] : [405];
    if (!expected.includes(status) && !(status === 400 || status === 431 || status === 403)) {
      throw new Error(`${where}: the OpenAPI document has no operation for this request, and the answer is not a 404/405 problem`);
    }
    content = { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } };
  } else {
    const response = operation.responses?.[String(status)] as Json | undefined;
    if (!response)
      throw new Error(
        `${where}: status ${status} is not documented for ${operation.operationId} (documented: ${Object.keys(operation.responses ?? {}).join(", ")})`,
      );
    content = (response.content ?? {}) as Json;
  }
  const type = mediaType(headers.get("content-type"));
  if (Object.keys(content).length === 0) {
    if (text !== "") throw new Error(`${where}: a body the document does not describe`);
    return;
  }
  const media = content[type] as Json | undefined;
  if (!media)
    throw new Error(`${where}: content type ${type || "(none)"} is not documented (documented: ${Object.keys(content).join(", ")})`);
  if (!type.endsWith("json") || !media.schema) return;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`${where}: the body is not the JSON the document describes`);
  }
  const validate = validatorFor(`${route?.template} ${method} ${status} ${type}`, media.schema);
  if (!validate(body)) {
    throw new Error(
      `${where}: the body does not match the document's schema: ${ajv.errorsText(validate.errors, { separator: "; " })}\n${text.slice(0, 500)}`,
    );
  }
}
