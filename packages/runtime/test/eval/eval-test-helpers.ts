/** Shared helpers of the eval tests: the embedded dataset's repositories, temp dirs, the CLI. */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type BuiltExampleRepo,
  buildExampleRepos,
  exampleDatasetFiles,
} from '../../src/example-dataset/build-example-repos.js';

/** Root of the monorepo. */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
/** The embedded dataset (`packages/runtime/datasets/swebench-mini`). */
export const miniInstances = exampleDatasetFiles.instances;
export const miniWrongPredictions = exampleDatasetFiles.wrongPredictions;

/** A temp dir removed by the returned `cleanup`. */
export async function tempDir(prefix: string): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), `sandkit-eval-test-${prefix}-`));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Builds the embedded dataset's repositories into `dir`. */
export function buildMirrors(dir: string): BuiltExampleRepo[] {
  return buildExampleRepos(dir);
}

/** Reads a JSONL file into objects. */
export async function readJsonl<T = Record<string, unknown>>(file: string): Promise<T[]> {
  const text = await readFile(file, 'utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}

/** Writes objects as JSONL. */
export async function writeJsonl(file: string, records: readonly unknown[]): Promise<void> {
  await writeFile(file, records.map((record) => `${JSON.stringify(record)}\n`).join(''));
}

/** What a CLI run printed and how it ended. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The `sandkit` entry point run by the CLI tests: the real one once the runtime's `main.ts` exists. */
export const cliEntry = existsSync(join(repoRoot, 'packages/runtime/src/cli/main.ts'))
  ? join(repoRoot, 'packages/runtime/src/cli/main.ts')
  : join(repoRoot, 'packages/runtime/test/eval/eval-cli-entry.ts');

/** Runs `sandkit <args>` from source through tsx, as a user would with `pnpm sandkit`. */
export function runCli(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  return runCommand(
    join(repoRoot, 'node_modules/.bin/tsx'),
    ['--conditions=@sandkit/source', cliEntry, ...args],
    env,
  );
}

/**
 * {@link runCli} with file permissions binding, also as root: root's process gets
 * `CAP_DAC_OVERRIDE` and `CAP_DAC_READ_SEARCH` dropped (`setpriv --bounding-set`), so a mode 000
 * file is unreadable to it as to anyone. It stays uid 0, so it still reaches the checkout wherever
 * the clone is (another user, say `nobody`, cannot enter a clone under a mode 700 `/root`).
 * Other users run it as {@link runCli} (permissions bind them already).
 */
export function runCliWithPermissions(args: readonly string[]): Promise<CliRun> {
  if (process.getuid?.() !== 0) return runCli(args);
  return runCommand(
    'setpriv',
    [
      '--bounding-set=-dac_override,-dac_read_search',
      '--',
      join(repoRoot, 'node_modules/.bin/tsx'),
      '--conditions=@sandkit/source',
      cliEntry,
      ...args,
    ],
    {},
  );
}

function runCommand(command: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<CliRun> {
  return new Promise((resolvePromise) => {
    execFile(
      command,
      args,
      { cwd: repoRoot, env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
        resolvePromise({ code, stdout, stderr });
      },
    );
  });
}
