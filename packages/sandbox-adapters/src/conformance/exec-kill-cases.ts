/**
 * Conformance cases for ending commands: `timeoutMs` and `signal` kill the whole process group
 * (parent and every child, including one that ignores SIGTERM), return the output so far, and
 * leave no process behind (B19).
 * @module
 */
import { describe, expect } from 'vitest';
import {
  type ConformanceContext,
  describeResult,
  hasProgram,
  processMarker,
  waitForNoProcesses,
} from './conformance-context.js';

/** Registers the timeout and abort cases. */
export function describeExecKillCases(context: ConformanceContext): void {
  const { test, scaled } = context;
  const client = () => context.client();
  /** A loop in a grandchild shell whose command line carries the marker (`$0`). */
  const loop = (marker: string, trap = '') => `sh -c '${trap}while true; do sleep 1; done' ${marker} &`;

  describe('timeout', () => {
    test(
      'exec.timeout-group',
      'B19: a timeout kills the shell and its looping grandchild, keeping output so far',
      async () => {
        const { marker, pattern } = processMarker();
        const timeoutMs = scaled(1500);
        const started = Date.now();
        const result = await client().exec(`echo partial; ${loop(marker)} sleep 60; echo never`, {
          timeoutMs,
        });
        const wallMs = Date.now() - started;
        expect(result, describeResult(result)).toMatchObject({
          exitCode: null,
          timedOut: true,
          aborted: false,
          stdout: 'partial\n',
        });
        expect(wallMs).toBeGreaterThanOrEqual(timeoutMs - 50);
        expect(wallMs).toBeLessThan(timeoutMs + scaled(3000));
        expect(await waitForNoProcesses(client(), pattern, scaled(2000))).toEqual([]);
      },
    );
    test(
      'exec.timeout-term-ignored',
      'B19: escalates to SIGKILL for children that ignore SIGTERM',
      async () => {
        const { marker, pattern } = processMarker();
        const timeoutMs = scaled(1000);
        const started = Date.now();
        const result = await client().exec(
          `trap '' TERM; echo partial; ${loop(marker, 'trap \\"\\" TERM; ')} sleep 60`,
          {
            timeoutMs,
          },
        );
        const wallMs = Date.now() - started;
        expect(result, describeResult(result)).toMatchObject({
          exitCode: null,
          timedOut: true,
          stdout: 'partial\n',
        });
        expect(result.signal).toBe('SIGKILL');
        expect(wallMs).toBeLessThan(timeoutMs + scaled(6000));
        expect(await waitForNoProcesses(client(), pattern, scaled(2000))).toEqual([]);
      },
    );
    test(
      'exec.timeout-python',
      'B19: a timeout kills a python3 loop under the shell (a sh loop when python3 is absent)',
      async () => {
        const { marker, pattern } = processMarker();
        // The interpreter's own path: a version-manager shim (pyenv) can take seconds to start it.
        const python = (await hasProgram(client(), 'python3'))
          ? (await client().exec(`python3 -c 'import sys; print(sys.executable)'`)).stdout.trim()
          : '';
        const program = python
          ? `${python} -c 'import sys, time\nprint("tick", flush=True)\nwhile True: time.sleep(1)' ${marker}`
          : `sh -c 'echo tick; while true; do sleep 1; done' ${marker}`;
        const result = await client().exec(program, { timeoutMs: scaled(2500) });
        expect(result, describeResult(result)).toMatchObject({
          exitCode: null,
          timedOut: true,
          stdout: 'tick\n',
        });
        expect(await waitForNoProcesses(client(), pattern, scaled(2000))).toEqual([]);
        const after = await client().exec(
          `grep -l -a -e '${pattern}' /proc/[0-9]*/cmdline 2>/dev/null | wc -l`,
        );
        expect(after.stdout.trim()).toBe('0');
      },
    );
    test(
      'exec.timeout-detached',
      'R14: a timeout also kills what the command detached with setsid and cd / (SIGTERM trapped)',
      async () => {
        const { marker, pattern } = processMarker();
        // $0 of each detached shell is the marker; `setsid -f` where util-linux has it
        const daemon = (dir: string) =>
          `sh -c 'cd ${dir}; trap "" TERM; while true; do sleep 1; done' ${marker}`;
        const result = await client().exec(
          `trap '' TERM; (cd / && setsid ${daemon('/')} >/dev/null 2>&1 &); setsid ${daemon('/tmp')} >/dev/null 2>&1 & echo started; sleep 60`,
          { timeoutMs: scaled(1500) },
        );
        expect(result, describeResult(result)).toMatchObject({ timedOut: true, stdout: 'started\n' });
        expect(await waitForNoProcesses(client(), pattern, scaled(3000))).toEqual([]);
      },
    );
    test('exec.timeout-not-reached', 'leaves timedOut false when the command ends in time', async () => {
      const result = await client().exec('echo quick', { timeoutMs: scaled(10_000) });
      expect(result).toMatchObject({ exitCode: 0, timedOut: false, aborted: false, stdout: 'quick\n' });
    });
  });

  describe('abort signal', () => {
    test('exec.abort-group', 'aborting kills the process group and returns the output so far', async () => {
      const { marker, pattern } = processMarker();
      const controller = new AbortController();
      const running = client().exec(`echo partial; ${loop(marker)} sleep 60`, {
        signal: controller.signal,
        onStdout: () => setTimeout(() => controller.abort(), scaled(300)),
      });
      const started = Date.now();
      const result = await running;
      expect(result, describeResult(result)).toMatchObject({
        exitCode: null,
        aborted: true,
        timedOut: false,
        stdout: 'partial\n',
      });
      expect(Date.now() - started).toBeLessThan(scaled(5000));
      expect(await waitForNoProcesses(client(), pattern, scaled(2000))).toEqual([]);
    });
    test(
      'exec.abort-before-start',
      'does not run the command when the signal is already aborted',
      async () => {
        const controller = new AbortController();
        controller.abort();
        const result = await client().exec('touch aborted-marker-file; echo ran', {
          signal: controller.signal,
        });
        expect(result, describeResult(result)).toMatchObject({ exitCode: null, aborted: true, stdout: '' });
        const check = await client().exec('test -e aborted-marker-file && echo exists || echo absent');
        expect(check.stdout).toBe('absent\n');
      },
    );
  });
}
