/**
 * The prompt of `sandkit run`: a template file (`--prompt FILE`; the default is
 * `prompts/swe-bench.md` in this package, written for sandkit's tools) whose `{{name}}`
 * placeholders are filled from the instance.
 * @module
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { SandkitError, SandkitErrorCode } from '@sandkit/core';
import type { SweBenchInstance } from '../eval/load/swe-bench-instance.js';

/** The default template's path (shipped in the package). */
export const defaultPromptFile = fileURLToPath(new URL('../../prompts/swe-bench.md', import.meta.url));

/** The placeholders a template may use. */
export const promptPlaceholders = [
  'problem_statement',
  'repo',
  'instance_id',
  'base_commit',
  'repo_dir',
  'hints_text',
] as const;

/**
 * Reads a template and checks its placeholders.
 * @throws SandkitError `invalid_option` when the file cannot be read, has no `{{problem_statement}}`,
 *   or names a placeholder not in {@link promptPlaceholders}.
 */
export async function loadPromptTemplate(file: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    throw invalid(`cannot read the --prompt file ${file}: ${(cause as Error).message}`);
  }
  const unknown = [...text.matchAll(/\{\{\s*([^}]*?)\s*\}\}/g)]
    .map((match) => match[1] as string)
    .filter((name) => !(promptPlaceholders as readonly string[]).includes(name));
  if (unknown.length > 0)
    throw invalid(
      `--prompt ${file} uses unknown placeholder(s) ${[...new Set(unknown)].map((n) => `{{${n}}}`).join(', ')}; the known ones are ${promptPlaceholders.map((n) => `{{${n}}}`).join(', ')}`,
    );
  if (!/\{\{\s*problem_statement\s*\}\}/.test(text))
    throw invalid(
      `--prompt ${file} has no {{problem_statement}}: the agent would never see the issue; add it`,
    );
  return text;
}

/** The template with every placeholder replaced (in one pass: text from the instance is never read as a placeholder). */
export function renderPrompt(template: string, instance: SweBenchInstance, repoDir: string): string {
  const values: Record<string, string> = {
    problem_statement: typeof instance.problem_statement === 'string' ? instance.problem_statement : '',
    repo: instance.repo,
    instance_id: instance.instance_id,
    base_commit: instance.base_commit,
    repo_dir: repoDir,
    hints_text: typeof instance.hints_text === 'string' ? instance.hints_text : '',
  };
  return template.replace(/\{\{\s*([^}]*?)\s*\}\}/g, (_, name: string) => values[name] ?? '');
}

function invalid(message: string): SandkitError {
  return new SandkitError({ code: SandkitErrorCode.invalidOption, message });
}
