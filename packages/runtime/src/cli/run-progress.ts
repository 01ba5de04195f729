/**
 * Live progress of `sandkit run` on stderr. On a terminal: a status table redrawn in place
 * (log-update): done of total, counts per exit status, the ETA, and each running instance with its
 * step number, tokens and cost so far; each finished instance's line stays above the table. Not a
 * terminal (logs, CI): one line per finished instance, nothing redrawn.
 * @module
 */
import { createLogUpdate } from 'log-update';
import { type AgentExitStatus, agentExitStatusList } from '../run/exit-status.js';
import type { Trajectory, TrajectoryStep } from '../run/trajectory-schema.js';

/** Receives the run's events (the callbacks of `runAgentBenchmark`). */
export interface RunProgress {
  /** The run will run `total` instances now (after `--resume` kept the finished ones): the table starts. */
  planned(total: number): void;
  started(instanceId: string): void;
  step(instanceId: string, step: TrajectoryStep): void;
  finished(trajectory: Trajectory): void;
  notice(message: string): void;
  stop(): void;
}

/** What the table shows; times are `Date.now()` values in ms. */
export interface RunProgressState {
  total: number;
  done: number;
  startedAt: number;
  counts: Partial<Record<AgentExitStatus, number>>;
  running: Map<string, { since: number; steps: number; tokens: number; usd: number | null }>;
}

/** Redraws at most this often, in ms (a step of each of 100 workers would redraw 100 times a second). */
const redrawMs = 200;

/** A table on a TTY, else one line per finished instance. */
export function createRunProgress(stream: NodeJS.WriteStream): RunProgress {
  const state: RunProgressState = {
    total: 0,
    done: 0,
    startedAt: Date.now(),
    counts: {},
    running: new Map(),
  };
  const finish = (t: Trajectory): void => {
    state.done += 1;
    state.counts[t.exit_status as AgentExitStatus] =
      (state.counts[t.exit_status as AgentExitStatus] ?? 0) + 1;
    state.running.delete(t.instance_id);
  };
  if (!stream.isTTY) {
    return {
      planned(total) {
        state.total = total;
      },
      started: () => undefined,
      step: () => undefined,
      finished(t) {
        finish(t);
        stream.write(`${finishedLine(t, state.done)}\n`);
      },
      notice: (message) => void stream.write(`${message}\n`),
      stop: () => undefined,
    };
  }
  const log = createLogUpdate(stream);
  let last = 0;
  let timer: NodeJS.Timeout | undefined;
  let tick: NodeJS.Timeout | undefined;
  const draw = (): void => {
    last = Date.now();
    timer = undefined;
    if (tick !== undefined) log(renderRunTable(state, last, stream.columns ?? 100));
  };
  const redraw = (): void => {
    if (timer !== undefined) return;
    const wait = redrawMs - (Date.now() - last);
    if (wait <= 0) draw();
    else timer = setTimeout(draw, wait);
  };
  return {
    planned(total) {
      state.total = total;
      state.startedAt = Date.now();
      // the clock and ETA move between events too
      tick = setInterval(draw, 1000);
      tick.unref();
      draw();
    },
    started(id) {
      state.running.set(id, { since: Date.now(), steps: 0, tokens: 0, usd: null });
      redraw();
    },
    step(id, step) {
      const row = state.running.get(id);
      if (row === undefined) return;
      row.steps += 1;
      row.tokens += (step.usage.input_tokens ?? 0) + (step.usage.output_tokens ?? 0);
      if (step.cost_usd !== null) row.usd = (row.usd ?? 0) + step.cost_usd;
      redraw();
    },
    finished(t) {
      finish(t);
      log.persist(finishedLine(t, state.done));
      draw();
    },
    notice(message) {
      if (tick === undefined) stream.write(`${message}\n`);
      else {
        log.persist(message);
        draw();
      }
    },
    stop() {
      if (tick === undefined) return;
      clearInterval(tick);
      if (timer !== undefined) clearTimeout(timer);
      draw();
      log.done();
    },
  };
}

/** The table: a headline, the counts per status, then one row per running instance (longest running first). */
export function renderRunTable(state: RunProgressState, now: number, columns: number): string {
  const elapsed = now - state.startedAt;
  const eta =
    state.done === 0 || state.done >= state.total
      ? '—'
      : duration((elapsed / state.done) * (state.total - state.done));
  const counts = agentExitStatusList
    .filter((s) => (state.counts[s] ?? 0) > 0)
    .map((s) => `${s} ${state.counts[s]}`)
    .join(' · ');
  const lines = [
    `sandkit run: ${state.done}/${state.total} done, ${state.running.size} running · ${duration(elapsed)} elapsed · ETA ${eta}`,
    counts === '' ? 'no instance finished yet' : counts,
  ];
  const rows = [...state.running.entries()].sort((a, b) => a[1].since - b[1].since);
  const width = Math.max(12, ...rows.map(([id]) => id.length));
  for (const [id, row] of rows) {
    const usd = row.usd === null ? '' : `  $${row.usd.toFixed(4)}`;
    const line = `  ${id.padEnd(width)}  step ${String(row.steps).padStart(3)}  ${tokens(row.tokens).padStart(6)} tok${usd}  ${duration(now - row.since)}`;
    lines.push(line.length > columns ? `${line.slice(0, Math.max(0, columns - 1))}…` : line);
  }
  return lines.join('\n');
}

/** One line per finished instance. */
export function finishedLine(t: Trajectory, done: number): string {
  const cost = t.totals.cost_usd === null ? '' : `, $${t.totals.cost_usd.toFixed(4)}`;
  const patch = t.patch === '' ? 'no patch' : `patch ${t.patch.split('\n').length} lines`;
  const retried = t.attempts.length > 0 ? ', on a fresh sandbox after the first failed' : '';
  return `[${done}] ${t.instance_id}: ${t.exit_status} (${t.totals.steps} steps${cost}, ${patch}, ${(t.duration_ms / 1000).toFixed(1)} s${retried})`;
}

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

function tokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(1)}k`;
  return `${(n / 1_000_000).toFixed(2)}M`;
}
