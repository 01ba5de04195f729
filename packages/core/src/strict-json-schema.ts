/**
 * The rewrite OpenAI's strict function calling needs ("Structured Outputs" subset of JSON Schema):
 * every object lists all its keys in `required` and has `additionalProperties: false`, so a key
 * that is optional in the tool becomes nullable instead (`"type": ["integer", "null"]`). The model
 * then sends `null` for "absent", which `executeToolCall` turns back into an absent key.
 * @module
 */
import { SandkitError, SandkitErrorCode } from './errors/sandkit-error.js';
import type { JsonSchema, JsonSchemaObject } from './tool-json-schema.js';

/**
 * Rewrites a tool's self-contained input schema for OpenAI strict mode. The input is not changed.
 *
 * - every object: all keys `required`, `additionalProperties: false`;
 * - keys that were optional: `null` added to `type` (and to `enum`), or `anyOf: [schema, {type: "null"}]`
 *   when the node has no `type`;
 * - `oneOf` becomes `anyOf` (strict mode knows only `anyOf`; zod's checks still run on the call);
 * - only the keywords strict mode permits are kept (`type`, `properties`, `required`, `items`, `anyOf`,
 *   `enum`, `const`, `description`, `title`, `pattern`, the formats it knows, numeric bounds,
 *   `minItems`/`maxItems`); others such as `minLength`, `maxLength` or `uniqueItems` make the API answer
 *   400 ("'uniqueItems' is not permitted") and are left out. The tool still enforces them: a violation
 *   comes back to the model as a fixable `invalid_arguments` result;
 * - a `default` is moved into the description ("Default: false."), since `null` now means "use the default".
 *
 * @throws SandkitError `invalid_schema` for what strict mode cannot express: free-form maps
 *   (`z.record`, loose or catch-all objects: `additionalProperties` other than `false`), nodes with
 *   no type (`z.any()`, `z.unknown()`), `allOf`/`not`, tuples (`prefixItems`). Use `strict: false` for such tools, or give
 *   the map fixed keys.
 */
export function toStrictJsonSchema(toolName: string, schema: JsonSchemaObject): JsonSchemaObject {
  return strictNode(toolName, schema, '') as JsonSchemaObject;
}

/** Keywords OpenAI strict mode permits (Structured Outputs, "Supported properties"). */
const permittedKeywords = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'anyOf',
  'enum',
  'const',
  'description',
  'title',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
]);
const permittedFormats = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
]);

function strictNode(toolName: string, node: JsonSchema, path: string): JsonSchema {
  const refuse = (what: string): never => {
    throw new SandkitError({
      code: SandkitErrorCode.invalidSchema,
      message: `Tool "${toolName}" cannot be sent in OpenAI strict mode: ${what} at ${path || '(root)'}. Use strict: false for this tool, or change the schema.`,
      details: { toolName, path },
    });
  };
  const out: JsonSchema = { ...node };
  if ('allOf' in out || 'not' in out) refuse('"allOf"/"not" (intersections and negations) are not supported');
  if ('patternProperties' in out || 'propertyNames' in out) {
    refuse('a free-form map (z.record) is not supported; strict mode needs fixed keys');
  }
  if ('prefixItems' in out) refuse('a tuple (z.tuple) is not supported; use an object with named fields');
  if ('oneOf' in out) {
    out.anyOf = out.oneOf;
    delete out.oneOf;
  }
  if (Array.isArray(out.anyOf)) {
    out.anyOf = out.anyOf.map((branch, i) =>
      strictNode(toolName, branch as JsonSchema, `${path}/anyOf/${i}`),
    );
  }
  if ('default' in out) {
    if (out.default !== null && out.default !== undefined) {
      const note = `Default: ${JSON.stringify(out.default)}.`;
      out.description = typeof out.description === 'string' ? `${out.description} ${note}` : note;
    }
    delete out.default;
  }
  if (typeof out.format === 'string' && !permittedFormats.has(out.format)) delete out.format;
  for (const key of Object.keys(out)) if (!permittedKeywords.has(key)) delete out[key];
  const isObject = out.type === 'object' || (Array.isArray(out.type) && out.type.includes('object'));
  if (isObject) {
    if (out.additionalProperties !== undefined && out.additionalProperties !== false) {
      refuse(
        'a free-form map (z.record, a loose or catch-all object) is not supported; strict mode needs fixed keys',
      );
    }
    const properties = (out.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set(Array.isArray(out.required) ? (out.required as string[]) : []);
    const strictProperties: Record<string, JsonSchema> = {};
    for (const [key, value] of Object.entries(properties)) {
      const child = strictNode(toolName, value, `${path}/${key}`);
      strictProperties[key] = required.has(key) ? child : nullable(child);
    }
    out.properties = strictProperties;
    out.required = Object.keys(strictProperties);
    out.additionalProperties = false;
  }
  if (out.items !== undefined && typeof out.items === 'object' && out.items !== null) {
    out.items = strictNode(toolName, out.items as JsonSchema, `${path}/items`);
  }
  if (!('type' in out) && !('anyOf' in out) && !('enum' in out) && !('const' in out)) {
    refuse('a value of any type (z.any, z.unknown) is not supported; give it a type');
  }
  return out;
}

/** The node, also accepting `null`. */
function nullable(node: JsonSchema): JsonSchema {
  const out: JsonSchema = { ...node };
  if (typeof out.type === 'string') {
    if (out.type !== 'null') out.type = [out.type, 'null'];
  } else if (Array.isArray(out.type)) {
    if (!out.type.includes('null')) out.type = [...out.type, 'null'];
  } else if (Array.isArray(out.anyOf)) {
    if (!out.anyOf.some((b) => (b as JsonSchema).type === 'null'))
      out.anyOf = [...out.anyOf, { type: 'null' }];
    return out;
  } else {
    return { anyOf: [out, { type: 'null' }] };
  }
  if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  if ('const' in out) {
    const { const: value, ...rest } = out;
    return { ...rest, enum: [value, null] };
  }
  return out;
}
