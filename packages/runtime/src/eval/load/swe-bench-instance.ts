/**
 * The zod schema of one SWE-bench task instance, as published in SWE-bench's datasets
 * (`princeton-nlp/SWE-bench*`), plus sandkit's optional fields (`test_cmd`, `test_framework`,
 * `setup_cmd`, `image`). Unknown fields (`problem_statement`, `hints_text`, …) are kept.
 * @module
 */
import { type TestFramework, testFrameworks } from '@sandkit/tools';
import { z } from 'zod';

export { type TestFramework, testFrameworks };

/** A SWE-bench instance id, also used as a directory name: no `/`, no leading `.`. */
export const instanceIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._+@-]*$/, 'must be letters, digits and . _ + @ - (no / or spaces)')
  .max(200);

/** A list of test ids: a JSON array, or a string holding one (SWE-bench's datasets store them so). */
const testListSchema = z.union([z.array(z.string()), z.string()]).transform((value, ctx) => {
  if (Array.isArray(value)) return value;
  try {
    const parsed: unknown = JSON.parse(value);
    if (Array.isArray(parsed) && parsed.every((item) => typeof item === 'string')) return parsed as string[];
  } catch {
    // reported below
  }
  ctx.issues.push({
    code: 'custom',
    input: value,
    message: 'must be a JSON-encoded list of strings or an array',
  });
  return z.NEVER;
});

/** Schema of one instance record. */
export const sweBenchInstanceSchema = z.looseObject({
  instance_id: instanceIdSchema,
  repo: z.string().regex(/^[\w.-]+\/[\w.-]+$/, 'must be owner/name'),
  base_commit: z.string().regex(/^[0-9a-f]{7,64}$/, 'must be a hexadecimal commit id'),
  patch: z.string(),
  test_patch: z.string().min(1, 'must not be empty: the harness needs the tests to run'),
  FAIL_TO_PASS: testListSchema,
  PASS_TO_PASS: testListSchema,
  version: z.union([z.string(), z.number()]).transform(String).optional(),
  environment_setup_commit: z.string().optional(),
  test_cmd: z.string().min(1).optional(),
  test_framework: z.enum(testFrameworks as unknown as [TestFramework, ...TestFramework[]]).optional(),
  setup_cmd: z.string().min(1).optional(),
  image: z.string().min(1).optional(),
});

/**
 * Schema of one instance record for re-grading logs (`sandkit grade`): the fields of
 * {@link sweBenchInstanceSchema}, with `patch` and `test_patch` optional, because grading reads
 * neither (the official `get_eval_report` reads instance_id, repo, version, FAIL_TO_PASS and
 * PASS_TO_PASS). An absent one is the empty string in the output; nothing in grading reads it.
 */
export const sweBenchGradeInstanceSchema = sweBenchInstanceSchema.extend({
  patch: z.string().default(''),
  test_patch: z.string().default(''),
});

/** One validated instance; `FAIL_TO_PASS` / `PASS_TO_PASS` are always arrays here. */
export type SweBenchInstance = z.output<typeof sweBenchInstanceSchema>;

/** Schema of one prediction record (SWE-bench's `predictions.jsonl`). */
export const sweBenchPredictionSchema = z.looseObject({
  instance_id: instanceIdSchema,
  model_name_or_path: z.string().min(1),
  /** `null` means the model produced no patch (SWE-bench's `patch_is_None`). */
  model_patch: z.string().nullable(),
});

/** One validated prediction. */
export type SweBenchPrediction = z.output<typeof sweBenchPredictionSchema>;

/**
 * The framework whose parser reads an instance's test output: its `test_framework`, else
 * `django` for django/django, `sympy` for sympy/sympy and `pytest` for every other repository
 * (SWE-bench's own Python repositories).
 */
export function frameworkOf(instance: SweBenchInstance): TestFramework {
  if (instance.test_framework !== undefined) return instance.test_framework;
  if (instance.repo === 'django/django') return 'django';
  if (instance.repo === 'sympy/sympy') return 'sympy';
  return 'pytest';
}
