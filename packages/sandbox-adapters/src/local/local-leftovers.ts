/**
 * Local sandboxes a killed sandkit process left behind (case R02): each sandbox records its owner
 * (host, pid, the pid's start time, boot id: the Docker adapter's owner labels) in
 * `<workdir>.owner.json`, and {@link removeLeftoverLocalSandboxes} removes those whose owner is
 * provably gone, SIGKILLing every process still tagged with their `SANDKIT_SANDBOX_ID` first.
 * @module
 */
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ownerState, sandboxLabels, sandkitLabel } from '../owner/owner-labels.js';
import { processTag } from './local-exec.js';
import { killTagged } from './transport/process-group.js';

/** The owner record of the sandbox at `workdir`: a sibling file, outside the workdir and its logs. */
export function localOwnerFile(workdir: string): string {
  return `${workdir}.owner.json`;
}

/** Records this process as the owner of sandbox `id` at `workdir`. */
export async function writeLocalOwner(workdir: string, id: string): Promise<void> {
  await writeFile(localOwnerFile(workdir), `${JSON.stringify(sandboxLabels(id, {}))}\n`);
}

/** Options of {@link removeLeftoverLocalSandboxes}. */
export interface RemoveLeftoverLocalSandboxesOptions {
  /** The adapter's `root`, where the sandboxes are. @default os.tmpdir() */
  root?: string;
  /** Only report what would be removed; kill and remove nothing. @default false */
  dryRun?: boolean;
}

/** What {@link removeLeftoverLocalSandboxes} did (or, with `dryRun`, would do). */
export interface RemoveLeftoverLocalSandboxesResult {
  /** Workdirs of the sandboxes removed (their owner is gone). */
  removed: string[];
  /** Workdirs of sandboxes left alone (owner alive, on another host, or no owner record). */
  kept: string[];
}

/**
 * Finds `<root>/sandkit-*` sandboxes and removes those whose owner is provably gone (pid missing,
 * reused with another start time, or the machine rebooted): SIGKILLs every process tagged with
 * their `SANDKIT_SANDBOX_ID` (for up to 2 s), then removes the directory, its `.logs` sibling and the owner record.
 * Sandboxes of live owners, of other hosts, and without an owner record (made before sandkit
 * recorded owners) are kept. The local adapter calls this on its root at its first `create()`.
 * Never throws for one sandbox it cannot read or remove (it is kept); a missing root is empty.
 */
export async function removeLeftoverLocalSandboxes(
  options: RemoveLeftoverLocalSandboxesOptions = {},
): Promise<RemoveLeftoverLocalSandboxesResult> {
  const root = resolve(options.root ?? tmpdir());
  const result: RemoveLeftoverLocalSandboxesResult = { removed: [], kept: [] };
  const names = await readdir(root).catch(() => [] as string[]);
  for (const name of names) {
    if (!/^sandkit-[A-Za-z0-9]{6}$/.test(name)) continue;
    const workdir = join(root, name);
    const logDir = `${workdir}.logs`;
    const labels = await readFile(localOwnerFile(workdir), 'utf8')
      .then((text) => JSON.parse(text) as Record<string, string>)
      .catch(() => undefined);
    const id = labels?.[sandkitLabel.sandboxId];
    if (labels === undefined || id === undefined || ownerState(labels) !== 'gone') {
      result.kept.push(workdir);
      continue;
    }
    if (!options.dryRun) {
      try {
        await killTagged(processTag.sandbox, id, Date.now() + 2000);
        await rm(workdir, { recursive: true, force: true, maxRetries: 3 });
        await rm(logDir, { recursive: true, force: true, maxRetries: 3 });
        await rm(localOwnerFile(workdir), { force: true });
      } catch {
        result.kept.push(workdir);
        continue;
      }
    }
    result.removed.push(workdir);
  }
  return result;
}
