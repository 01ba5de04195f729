/**
 * `run.json` of `sandkit run` (the options, totals per exit status, tokens, cost and wall time)
 * and the Markdown summary printed at the end of a run.
 * @module
 */
import { type AgentExitStatus, agentExitStatusList } from './exit-status.js';
import type { NormalizedRunOptions } from './run-options.js';
import type { TokenUsage, Trajectory } from './trajectory-schema.js';
import { sumUsage } from './trajectory-step.js';

/** The contents of `run.json`. */
export interface RunRecord {
  format: 'sandkit-run-1';
  /** The options the run was started with (the model by name). */
  options: Record<string, unknown>;
  started_at: string;
  finished_at: string;
  wall_time_ms: number;
  /** Instances chosen (after shuffle, ids, filter and slice). */
  instances: number;
  /** Instances with a trajectory (kept from an earlier run or run now). */
  finished: number;
  /** Instances run in this call. */
  ran: number;
  interrupted: boolean;
  status_counts: Record<AgentExitStatus, number>;
  tokens: TokenUsage;
  /** USD over the finished instances; `null` without a price. */
  cost_usd: number | null;
  steps: number;
  /** Finished instances that ran again on a fresh sandbox after their first one's infrastructure failed. */
  sandbox_retries: number;
  /** Why the run stopped before its instances were done (`auth`: the provider refused the key); `null` when it did not. */
  stopped: RunStop | null;
  /** Status of every finished instance, by id. */
  statuses: Record<string, AgentExitStatus>;
}

/** Why a run stopped early: the provider refused the credentials, so no instance could run. */
export interface RunStop {
  reason: 'auth';
  /** The instance whose request was refused. */
  instance_id: string;
  /** What to do, with the provider's words. */
  message: string;
}

/** Builds `run.json` from the trajectories of the chosen instances (one per id: never counted twice). */
export function buildRunRecord(input: {
  options: NormalizedRunOptions;
  startedAt: Date;
  instanceIds: readonly string[];
  trajectories: ReadonlyMap<string, Trajectory>;
  ran: number;
  interrupted: boolean;
  stopped: RunStop | null;
}): RunRecord {
  const finished = input.instanceIds.flatMap((id) => {
    const t = input.trajectories.get(id);
    return t === undefined ? [] : [t];
  });
  const status_counts = Object.fromEntries(agentExitStatusList.map((s) => [s, 0])) as Record<
    AgentExitStatus,
    number
  >;
  for (const t of finished) status_counts[t.exit_status as AgentExitStatus] += 1;
  const costs = finished.map((t) => t.totals.cost_usd);
  const o = input.options;
  return {
    format: 'sandkit-run-1',
    options: {
      dataset: o.dataset,
      out: o.out,
      model: o.modelName,
      prompt: o.promptFile,
      step_limit: o.stepLimit,
      cost_limit_usd: o.costLimitUsd,
      total_cost_limit_usd: o.totalCostLimitUsd,
      instance_timeout_s: o.instanceTimeoutMs / 1000,
      max_retries: o.maxRetries,
      instance_ids: o.instanceIds,
      filter: o.filter,
      slice: o.slice,
      shuffle: o.shuffle,
      seed: o.seed,
      resume: o.resume,
      redo: o.redo,
      sandbox: o.adapter?.name ?? o.sandbox,
      image: o.image,
      workers: o.workers,
      max_sandboxes: o.maxSandboxes,
      creates_per_second: Number.isFinite(o.createsPerSecond) ? o.createsPerSecond : null,
      atif: o.atif,
    },
    started_at: input.startedAt.toISOString(),
    finished_at: new Date().toISOString(),
    wall_time_ms: Date.now() - input.startedAt.getTime(),
    instances: input.instanceIds.length,
    finished: finished.length,
    ran: input.ran,
    interrupted: input.interrupted,
    status_counts,
    tokens: sumUsage(finished.map((t) => t.totals)),
    cost_usd: costs.some((c) => c !== null) ? costs.reduce<number>((sum, c) => sum + (c ?? 0), 0) : null,
    steps: finished.reduce((n, t) => n + t.totals.steps, 0),
    sandbox_retries: finished.filter((t) => t.attempts.length > 0).length,
    stopped: input.stopped,
    statuses: Object.fromEntries(finished.map((t) => [t.instance_id, t.exit_status as AgentExitStatus])),
  };
}

/** The summary: counts per status, totals, and one row per finished instance. */
export function formatRunSummary(record: RunRecord, trajectories: ReadonlyMap<string, Trajectory>): string {
  const statuses = agentExitStatusList.filter((s) => record.status_counts[s] > 0);
  const usd = (value: number | null): string => (value === null ? 'n/a' : `$${value.toFixed(4)}`);
  const lines = [
    '# sandkit run summary',
    '',
    `Model: ${record.options.model}. Instances: ${record.finished} of ${record.instances} finished (${record.ran} run now)${record.interrupted ? '; interrupted: --resume finishes the run' : ''}.`,
    '',
    `| ${['status', ...statuses].join(' | ')} |`,
    `|${[' --- ', ...statuses.map(() => ' ---: ')].join('|')}|`,
    `| ${['instances', ...statuses.map((s) => String(record.status_counts[s]))].join(' | ')} |`,
    '',
    ...(record.stopped === null ? [] : [`**Stopped:** ${record.stopped.message}`, '']),
    `Steps: ${record.steps}. Sandbox retries: ${record.sandbox_retries}. Tokens: ${record.tokens.input_tokens ?? 'n/a'} in (${record.tokens.cached_input_tokens ?? 0} cached), ${record.tokens.output_tokens ?? 'n/a'} out. Cost: ${usd(record.cost_usd)}. Wall time: ${(record.wall_time_ms / 1000).toFixed(1)} s.`,
    '',
    '| instance | status | steps | tool calls | cost | patch lines | time (s) |',
    '|---|---|---:|---:|---:|---:|---:|',
  ];
  for (const id of Object.keys(record.statuses)) {
    const t = trajectories.get(id);
    if (t === undefined) continue;
    const patchLines =
      t.patch === '' ? 0 : t.patch.split('\n').filter((l) => /^[+-](?![+-]{2} )/.test(l)).length;
    lines.push(
      `| ${id} | ${t.exit_status} | ${t.totals.steps} | ${t.totals.tool_calls} | ${usd(t.totals.cost_usd)} | ${patchLines} | ${(t.duration_ms / 1000).toFixed(1)} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}
