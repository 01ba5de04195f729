/**
 * Turns `null` back into "absent" for keys a Zod schema marks optional (and does not allow to be
 * `null`). OpenAI strict mode makes every key required and optional ones nullable, so a model
 * answers `{"path": "a.ts", "offset": null}` where the tool expects `{"path": "a.ts"}`.
 * @module
 */
import type { z } from 'zod';

type Def = { type: string; [key: string]: unknown };

/**
 * A copy of `value` with every `null` removed from keys that are optional in `schema` and do not
 * accept `null`; nested objects, arrays, records, tuples and union branches are walked too. Values
 * that do not fit the schema are left as they are (validation reports them).
 */
export function dropNullOptionals(schema: z.ZodType, value: unknown): unknown {
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'nonoptional':
    case 'catch':
      return value === null || value === undefined
        ? value
        : dropNullOptionals(def.innerType as z.ZodType, value);
    case 'pipe':
      return dropNullOptionals(def.in as z.ZodType, value);
    case 'lazy':
      return dropNullOptionals((def.getter as () => z.ZodType)(), value);
    case 'object':
      return isRecord(value) ? dropInObject(def.shape as Record<string, z.ZodType>, value) : value;
    case 'array':
      return Array.isArray(value)
        ? value.map((item) => dropNullOptionals(def.element as z.ZodType, item))
        : value;
    case 'tuple':
      return Array.isArray(value)
        ? value.map((item, i) => {
            const items = def.items as z.ZodType[];
            const itemSchema = items[i] ?? (def.rest as z.ZodType | null);
            return itemSchema ? dropNullOptionals(itemSchema, item) : item;
          })
        : value;
    case 'record':
      return isRecord(value)
        ? Object.fromEntries(
            Object.entries(value).map(([k, v]) => [k, dropNullOptionals(def.valueType as z.ZodType, v)]),
          )
        : value;
    case 'union':
      return inUnion(def.options as z.ZodType[], value);
    case 'intersection':
      return dropNullOptionals(def.right as z.ZodType, dropNullOptionals(def.left as z.ZodType, value));
    default:
      return value;
  }
}

function dropInObject(
  shape: Record<string, z.ZodType>,
  value: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...value };
  for (const [key, field] of Object.entries(shape)) {
    if (!(key in out)) continue;
    if (out[key] === null && isOptional(field) && !field.safeParse(null).success) delete out[key];
    else out[key] = dropNullOptionals(field, out[key]);
  }
  return out;
}

/** The first branch the cleaned value satisfies wins; otherwise the value is left for validation to report. */
function inUnion(options: z.ZodType[], value: unknown): unknown {
  for (const option of options) {
    const cleaned = dropNullOptionals(option, value);
    if (option.safeParse(cleaned).success) return cleaned;
  }
  return value;
}

function isOptional(schema: z.ZodType): boolean {
  return (schema as unknown as { _zod: { optin?: string } })._zod.optin !== undefined;
}

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
