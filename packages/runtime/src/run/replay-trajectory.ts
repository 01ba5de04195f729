/**
 * `replayTrajectory` (`sandkit replay`): re-runs a trajectory's tool calls, in order, on a fresh
 * sandbox prepared as the run prepared it (the same instance, the same path as `sandkit eval`),
 * without any model; reports the first call whose result differs from the recorded one, and
 * whether the final patch is the same.
 *
 * Results are compared as JSON after two normalisations, because they cannot repeat exactly: the
 * sandbox's repository path is replaced by `<repo>` (each sandbox has its own), and fields that
 * measure time (`durationMs`, `mtime`, names ending in `Ms`, `_ms`, `At`, `Time`) and `processId`
 * are dropped. Calls that never ran (malformed arguments, an unknown tool) are skipped.
 * @module
 */
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { executeToolCall, type SandboxAdapter, SandkitError, SandkitErrorCode } from '@sandkit/core';
import { defaultCodingTools } from '../agent/default-coding-tools.js';
import { workspaceDiff } from '../agent/workspace-diff.js';
import { createEvalSandboxes, type EvalSandboxKind, resolveCheckoutMode } from '../eval/eval-sandboxes.js';
import { EvalLog } from '../eval/instance/eval-log.js';
import { RepoStore } from '../eval/instance/repo-store.js';
import { loadInstances } from '../eval/load/instance-loader.js';
import { officialImageNaming } from '../eval/sandbox/official-image.js';
import { prepareAgentSandbox } from './prepare-agent-sandbox.js';
import { type Trajectory, trajectorySchema } from './trajectory-schema.js';

/** Options of {@link replayTrajectory}. */
export interface ReplayOptions {
  /** The `.traj.json` file. */
  trajectory: string;
  /** The dataset holding the trajectory's instance. */
  dataset: string;
  reposDir?: string;
  repoUrl?: string;
  cacheDir?: string;
  /** @default 'local' */
  sandbox?: EvalSandboxKind;
  image?: string;
  adapter?: SandboxAdapter;
  /** Wall clock for the whole replay, in seconds. @default 1800 */
  timeoutSeconds?: number;
  signal?: AbortSignal;
}

/** The first call whose result differs. */
export interface ReplayDivergence {
  step: number;
  callId: string;
  tool: string;
  recorded: string;
  replayed: string;
}

/** What a replay found. */
export interface ReplayResult {
  instanceId: string;
  /** Tool calls replayed (all of them, also after a divergence). */
  calls: number;
  /** `null` when every result matched. */
  firstDivergence: ReplayDivergence | null;
  /** Whether the replayed patch is byte for byte the recorded one. */
  samePatch: boolean;
  patch: string;
}

/**
 * Replays the trajectory.
 * @throws SandkitError `invalid_option` when the file is no valid trajectory or its instance is not
 *   in the dataset; `not_found` when the repository is unavailable; SandboxError when the sandbox fails.
 */
export async function replayTrajectory(options: ReplayOptions): Promise<ReplayResult> {
  const trajectory = await readTrajectoryFile(options.trajectory);
  const { instances } = await loadInstances(resolve(options.dataset));
  const instance = instances.find((i) => i.instance_id === trajectory.instance_id);
  if (instance === undefined)
    invalid(
      `${options.dataset} has no instance ${trajectory.instance_id}: give the dataset the run used (--dataset)`,
    );
  const timeoutMs = (options.timeoutSeconds ?? 1800) * 1000;
  const signal = options.signal ?? new AbortController().signal;
  const sandboxes = createEvalSandboxes({
    kind: options.sandbox ?? 'local',
    image: options.image ?? null,
    naming: { ...officialImageNaming, template: null },
    adapter: options.adapter ?? null,
    maxSandboxes: 1,
    timeoutMs,
  });
  try {
    const session = await (await sandboxes.forInstance(instance)).acquire({
      signal,
      expectedDurationMs: timeoutMs,
    });
    try {
      const store = new RepoStore({
        reposDir: options.reposDir === undefined ? null : resolve(options.reposDir),
        cacheDir: resolve(
          options.cacheDir ??
            join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'sandkit', 'mirrors'),
        ),
        repoUrl: options.repoUrl ?? null,
      });
      const prepared = await prepareAgentSandbox(
        { instance, store, checkoutMode: resolveCheckoutMode('auto', sandboxes), signal },
        session,
        new EvalLog(),
        timeoutMs,
      );
      const tools = defaultCodingTools(session.client, prepared.repoDir);
      const recordedRoot = trajectory.sandbox?.repo_dir ?? null;
      let firstDivergence: ReplayDivergence | null = null;
      let calls = 0;
      for (const step of trajectory.steps) {
        for (const call of step.tool_calls) {
          if (call.is_error && call.duration_ms === null) continue; // never ran (malformed, unknown tool)
          calls += 1;
          const result = await executeToolCall(
            tools,
            { name: call.name, input: call.args, id: call.id },
            { signal },
          );
          const recorded = comparable(
            call.is_error ? { error: call.error } : { output: call.result },
            recordedRoot,
          );
          const replayed = comparable(
            result.isError ? { error: result.error?.message ?? '' } : { output: result.output },
            prepared.repoDir,
          );
          if (firstDivergence === null && recorded !== replayed)
            firstDivergence = { step: step.index, callId: call.id, tool: call.name, recorded, replayed };
        }
      }
      const { diff } = await workspaceDiff(session.client, prepared.repoDir, signal, {
        base: prepared.baseTree,
      });
      return {
        instanceId: trajectory.instance_id,
        calls,
        firstDivergence,
        samePatch: diff === trajectory.patch,
        patch: diff,
      };
    } finally {
      await session.release({ destroy: true });
    }
  } finally {
    await sandboxes.close();
  }
}

/** Reads and validates a trajectory file. @throws SandkitError `invalid_option` when it is none. */
export async function readTrajectoryFile(file: string): Promise<Trajectory> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(file, 'utf8'));
  } catch (cause) {
    invalid(`cannot read the trajectory ${file}: ${(cause as Error).message}`);
  }
  const parsed = trajectorySchema.safeParse(value);
  if (!parsed.success)
    invalid(
      `${file} is not a sandkit trajectory (sandkit-trajectory-1): ${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}`,
    );
  return parsed.data;
}

const volatileKey = /^(durationMs|mtime|processId)$|(Ms|_ms|At|Time)$/;

/** JSON of `value` without time-measuring fields, with `root` replaced by `<repo>`. */
function comparable(value: unknown, root: string | null): string {
  const text = JSON.stringify(value, (key, v: unknown) => (volatileKey.test(key) ? undefined : v)) ?? 'null';
  return root === null ? text : text.split(root).join('<repo>');
}

function invalid(message: string): never {
  throw new SandkitError({ code: SandkitErrorCode.invalidOption, message });
}
