/**
 * Which files holding a match the search skipped because of an ignore rule, and which rule: the
 * same search without ignore files (`rg -l --no-ignore`, skipped-probe argv) piped through the
 * shared `git check-ignore` (workspace/ignore-rules.ts). Runs beside the search itself.
 * @module
 */
import type { SandboxClient } from '@sandkit/core';
import {
  checkIgnorePrelude,
  type IgnoredSummary,
  maxIgnoredListed,
  parseIgnoredRecords,
  rootRelative,
} from '../workspace/ignore-rules.js';
import { confinedSearchCommand } from './confined-search-command.js';
import type { SearchFilesInput } from './search-files-schema.js';
import { skippedProbeArgv } from './search-argv.js';

/** Files the probe looks at, at most. */
const probeLimit = 1000;

/**
 * The files with a match that a rule skips, or `undefined` when there are none or the probe
 * could not run (no rg, no git, a bad pattern: the search reports those itself).
 */
export async function skippedByRules(
  client: SandboxClient,
  root: string,
  input: SearchFilesInput,
  signal: AbortSignal | undefined,
): Promise<IgnoredSummary | undefined> {
  const command = confinedSearchCommand(root, input.path, skippedProbeArgv(input), {
    prelude: checkIgnorePrelude(root),
    pipeTo: `head -z -n ${probeLimit} | classify | grep -z -v "^$T$T$T"`,
  });
  const result = await client.exec(command, {
    cwd: root,
    maxOutputBytes: 256 * 1024,
    ...(signal ? { signal } : {}),
  });
  if (result.exitCode !== 0 && result.exitCode !== 1) return undefined;
  const skipped = parseIgnoredRecords(result.stdout, rootRelative(root));
  if (skipped.length === 0) return undefined;
  return { count: skipped.length, paths: skipped.slice(0, maxIgnoredListed) };
}
