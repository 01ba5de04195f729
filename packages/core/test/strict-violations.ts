import type { JsonSchema } from '../src/tool-json-schema.js';

/** Every rule OpenAI strict mode checks, walked over the whole schema. */
export function strictViolations(node: unknown, path = ''): string[] {
  if (typeof node !== 'object' || node === null) return [];
  if (Array.isArray(node)) return node.flatMap((item, i) => strictViolations(item, `${path}/${i}`));
  const schema = node as JsonSchema;
  const out: string[] = [];
  const isObject = schema.type === 'object' || (Array.isArray(schema.type) && schema.type.includes('object'));
  if (isObject) {
    if (schema.additionalProperties !== false) out.push(`${path}: additionalProperties is not false`);
    const keys = Object.keys((schema.properties ?? {}) as object).sort();
    const required = [...((schema.required ?? []) as string[])].sort();
    if (JSON.stringify(keys) !== JSON.stringify(required))
      out.push(`${path}: required ${required} != ${keys}`);
  }
  if ('oneOf' in schema) out.push(`${path}: oneOf`);
  for (const [key, value] of Object.entries(schema)) out.push(...strictViolations(value, `${path}/${key}`));
  return out;
}
