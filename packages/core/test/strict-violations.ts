import type { JsonSchema } from '../src/tool-json-schema.js';

const permitted = new Set([
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

/**
 * Every rule OpenAI strict mode checks, walked over each schema node (properties, items, anyOf
 * branches): all keys required, `additionalProperties: false`, only permitted keywords, no `oneOf`.
 */
export function strictViolations(node: unknown, path = ''): string[] {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return [];
  const schema = node as JsonSchema;
  const out: string[] = [];
  for (const key of Object.keys(schema))
    if (!permitted.has(key)) out.push(`${path}: "${key}" is not permitted`);
  const isObject = schema.type === 'object' || (Array.isArray(schema.type) && schema.type.includes('object'));
  if (isObject) {
    if (schema.additionalProperties !== false) out.push(`${path}: additionalProperties is not false`);
    const keys = Object.keys((schema.properties ?? {}) as object).sort();
    const required = [...((schema.required ?? []) as string[])].sort();
    if (JSON.stringify(keys) !== JSON.stringify(required))
      out.push(`${path}: required ${required} != ${keys}`);
  }
  for (const [key, child] of Object.entries((schema.properties ?? {}) as Record<string, unknown>)) {
    out.push(...strictViolations(child, `${path}/${key}`));
  }
  if (schema.items !== undefined) out.push(...strictViolations(schema.items, `${path}/items`));
  if (Array.isArray(schema.anyOf)) {
    for (const [i, branch] of schema.anyOf.entries())
      out.push(...strictViolations(branch, `${path}/anyOf/${i}`));
  }
  return out;
}
