import { PassThrough } from 'node:stream';
import stripAnsi from 'strip-ansi';
import { describe, expect, it } from 'vitest';
import { createRunProgress, type RunProgressState, renderRunTable } from '../../src/cli/run-progress.js';
import type { Trajectory, TrajectoryStep } from '../../src/run/trajectory-schema.js';

const usage = {
  input_tokens: 1200,
  output_tokens: 300,
  cached_input_tokens: 0,
  cache_write_tokens: null,
  reasoning_tokens: null,
};
const step: TrajectoryStep = {
  index: 0,
  finished_at: new Date(0).toISOString(),
  finish_reason: 'tool-calls',
  text: '',
  reasoning: null,
  tool_calls: [],
  usage,
  cost_usd: 0.0125,
};
const trajectory = (id: string, exit_status: string): Trajectory =>
  ({
    instance_id: id,
    exit_status,
    patch: 'diff --git a/x b/x\n',
    duration_ms: 4200,
    attempts: [],
    totals: { ...usage, steps: 3, tool_calls: 2, cost_usd: 0.03 },
  }) as unknown as Trajectory;

/** A stream that says it is a terminal, collecting what is written. */
function terminal(): { stream: NodeJS.WriteStream; text: () => string } {
  const stream = new PassThrough() as unknown as NodeJS.WriteStream & PassThrough;
  let written = '';
  stream.on('data', (chunk: Buffer) => {
    written += chunk.toString();
  });
  Object.assign(stream, { isTTY: true, columns: 120, rows: 40 });
  return { stream, text: () => written };
}

describe('renderRunTable', () => {
  it('shows done of total, the counts per status, the ETA and each running instance with its step, tokens and cost', () => {
    const state: RunProgressState = {
      total: 4,
      done: 2,
      startedAt: 0,
      counts: { submitted: 1, step_limit: 1 },
      running: new Map([
        ['repo__b-2', { since: 50_000, steps: 7, tokens: 15_300, usd: 0.042 }],
        ['repo__a-1', { since: 10_000, steps: 12, tokens: 900, usd: null }],
      ]),
    };
    const lines = renderRunTable(state, 60_000, 120).split('\n');
    // 2 done in 60 s, 2 to go: 60 s more
    expect(lines[0]).toBe('sandkit run: 2/4 done, 2 running · 1m00s elapsed · ETA 1m00s');
    expect(lines[1]).toBe('submitted 1 · step_limit 1');
    expect(lines[2]).toMatch(/^ {2}repo__a-1 +step {2}12 +900 tok {2}50s$/);
    expect(lines[3]).toMatch(/^ {2}repo__b-2 +step {3}7 +15\.3k tok {2}\$0\.0420 {2}10s$/);
  });

  it('has no ETA before the first instance finishes, and cuts rows to the terminal width', () => {
    const state: RunProgressState = {
      total: 3,
      done: 0,
      startedAt: 0,
      counts: {},
      running: new Map([['x'.repeat(80), { since: 0, steps: 1, tokens: 1, usd: null }]]),
    };
    const lines = renderRunTable(state, 5000, 40).split('\n');
    expect(lines[0]).toContain('ETA —');
    expect(lines[1]).toBe('no instance finished yet');
    expect(lines[2]).toHaveLength(40);
  });
});

describe('createRunProgress', () => {
  describe('when stderr is not a terminal', () => {
    it('writes one line per finished instance and nothing per step', () => {
      const stream = new PassThrough() as unknown as NodeJS.WriteStream & PassThrough;
      const chunks: string[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c.toString()));
      const progress = createRunProgress(stream);
      progress.planned(2);
      progress.started('repo__a-1');
      progress.step('repo__a-1', step);
      progress.finished(trajectory('repo__a-1', 'submitted'));
      progress.stop();
      expect(chunks).toEqual(['[1] repo__a-1: submitted (3 steps, $0.0300, patch 2 lines, 4.2 s)\n']);
    });
  });

  describe('when stderr is a terminal', () => {
    it('redraws the table in place and keeps each finished line above it', async () => {
      const { stream, text } = terminal();
      const progress = createRunProgress(stream);
      progress.planned(2);
      progress.started('repo__a-1');
      progress.started('repo__b-2');
      progress.step('repo__b-2', step);
      await new Promise((resolve) => setTimeout(resolve, 250));
      expect(stripAnsi(text())).toMatch(/repo__b-2 +step {3}1 +1\.5k tok {2}\$0\.0125/);
      progress.finished(trajectory('repo__a-1', 'step_limit'));
      progress.stop();
      const out = stripAnsi(text());
      expect(out).toContain('[1] repo__a-1: step_limit (3 steps');
      expect(out).toContain('sandkit run: 1/2 done, 1 running');
      expect(out).toContain('step_limit 1');
      // log-update erases the previous table before each redraw (cursor up, erase line)
      expect(text()).toMatch(/\u001b\[\d*A|\u001b\[2K/);
    });
  });
});
