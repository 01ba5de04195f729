/**
 * Conformance cases for plain command runs: exit codes, death by signal, working directory,
 * environment, stdin, background children and streaming callbacks.
 * @module
 */
import { formatCommand } from '@sandkit/core';
import { describe, expect } from 'vitest';
import {
  type ConformanceContext,
  describeResult,
  expectSandboxError,
  hasProgram,
} from './conformance-context.js';

/** Registers the plain exec cases. */
export function describeExecBasicCases(context: ConformanceContext): void {
  const { test, scaled } = context;
  const client = () => context.client();

  describe('exit status', () => {
    for (const code of [0, 1, 2, 255]) {
      test(`exec.exit-${code}`, `returns exit code ${code} as a result, not a throw`, async () => {
        const result = await client().exec(`echo out; echo err >&2; exit ${code}`);
        expect(result, describeResult(result)).toMatchObject({
          exitCode: code,
          signal: null,
          stdout: 'out\n',
          stderr: 'err\n',
        });
        expect(result).toMatchObject({
          timedOut: false,
          aborted: false,
          stdoutTruncated: false,
          stderrTruncated: false,
        });
        expect(result.durationMs).toBeGreaterThanOrEqual(0);
      });
    }
    test('exec.exit-126', 'returns 126 for a file that is not executable', async () => {
      const result = await client().exec(
        "printf 'echo hi\\n' > not-executable.sh && chmod 644 not-executable.sh && ./not-executable.sh",
      );
      expect(result.exitCode, describeResult(result)).toBe(126);
    });
    test('exec.exit-127', 'returns 127 for a command that does not exist', async () => {
      const result = await client().exec('sandkit-no-such-command-xyz');
      expect(result.exitCode, describeResult(result)).toBe(127);
      expect(result.stderr).toMatch(/not found/);
    });
    test('exec.signal-death', 'reports death by signal with exitCode null and the signal name', async () => {
      const result = await client().exec('echo before; kill -9 $$; echo after');
      expect(result, describeResult(result)).toMatchObject({
        exitCode: null,
        signal: 'SIGKILL',
        stdout: 'before\n',
      });
      expect(result).toMatchObject({ timedOut: false, aborted: false });
    });
    test('exec.bash', "runs bash when shell is 'bash'", async () => {
      const result = await client().exec(
        'test -n "$BASH_VERSION" && echo bash $((2**10)); [[ a == a ]] && echo ok',
        { shell: 'bash' },
      );
      expect(result.stdout, describeResult(result)).toBe('bash 1024\nok\n');
    });
  });

  describe('working directory', () => {
    test('exec.cwd-default', "runs in the handle's workdir by default", async () => {
      const result = await client().exec('pwd');
      expect(result.stdout).toBe(`${context.handle().workdir}\n`);
    });
    test('exec.cwd-relative', 'resolves a relative cwd against the workdir', async () => {
      await client().exec('mkdir -p "sub dir/inner"');
      const result = await client().exec('pwd', { cwd: 'sub dir/inner' });
      expect(result.stdout).toBe(`${context.handle().workdir}/sub dir/inner\n`);
    });
    test('exec.cwd-absolute', 'accepts an absolute cwd', async () => {
      const result = await client().exec('pwd', { cwd: `${context.handle().workdir}/sub dir` });
      expect(result.stdout).toBe(`${context.handle().workdir}/sub dir\n`);
    });
    test('exec.cwd-missing', 'throws SandboxError cwd_not_found for a missing cwd', async () => {
      await expectSandboxError(client().exec('echo hi', { cwd: 'no/such/dir' }), 'cwd_not_found');
      await expectSandboxError(
        client().exec('echo hi', { cwd: `${context.handle().workdir}/missing` }),
        'cwd_not_found',
      );
    });
  });

  describe('environment', () => {
    const names = ['NO_COLOR', 'TERM', 'GIT_TERMINAL_PROMPT', 'PAGER', 'LC_ALL'];
    const print = names.map((name) => `printf '%s=%s\\n' ${name} "\${${name}-unset}"`).join('; ');
    test('exec.env-base', 'starts from a non-interactive environment', async () => {
      const result = await client().exec(print);
      expect(result.stdout).toBe('NO_COLOR=1\nTERM=dumb\nGIT_TERMINAL_PROMPT=0\nPAGER=cat\nLC_ALL=C.UTF-8\n');
    });
    test('exec.env-caller-wins', "lets the caller's env add to and override the base", async () => {
      const env = {
        NO_COLOR: '0',
        TERM: 'xterm',
        GIT_TERMINAL_PROMPT: '1',
        PAGER: 'less',
        LC_ALL: 'C',
        SANDKIT_X: 'a b$c',
      };
      const result = await client().exec(`${print}; printf '%s\\n' "$SANDKIT_X"`, { env });
      expect(result.stdout).toBe(
        'NO_COLOR=0\nTERM=xterm\nGIT_TERMINAL_PROMPT=1\nPAGER=less\nLC_ALL=C\na b$c\n',
      );
    });
    test('exec.env-path', 'keeps a PATH on which coreutils are found', async () => {
      const result = await client().exec('command -v ls && command -v find');
      expect(result.exitCode, describeResult(result)).toBe(0);
    });
  });

  describe('stdin', () => {
    test('exec.stdin-closed', 'B18: cat, grep -c and rg see EOF at once when no stdin is given', async () => {
      const limit = { timeoutMs: scaled(10_000) };
      const cat = await client().exec('cat', limit);
      expect(cat, describeResult(cat)).toMatchObject({ exitCode: 0, stdout: '', timedOut: false });
      expect(cat.durationMs).toBeLessThan(scaled(2000));
      const grep = await client().exec('grep -c foo', limit);
      expect(grep, describeResult(grep)).toMatchObject({ exitCode: 1, stdout: '0\n', timedOut: false });
      expect(grep.durationMs).toBeLessThan(scaled(2000));
      const read = await client().exec('if read -r line; then echo got; else echo eof; fi', limit);
      expect(read.stdout).toBe('eof\n');
      if (await hasProgram(client(), 'rg')) {
        await client().exec("mkdir -p rg-case && printf 'x\\n// TODO fix\\n' > rg-case/a.txt");
        const rg = await client().exec('rg -n TODO', { ...limit, cwd: 'rg-case' });
        expect(rg, describeResult(rg)).toMatchObject({
          exitCode: 0,
          stdout: 'a.txt:2:// TODO fix\n',
          timedOut: false,
        });
        expect(rg.durationMs).toBeLessThan(scaled(2000));
      }
    });
    test('exec.stdin-text', 'B21: delivers text stdin followed by EOF (wc -l sees 2 lines)', async () => {
      const result = await client().exec('wc -l', { stdin: 'a\nb\n', timeoutMs: scaled(10_000) });
      expect(result, describeResult(result)).toMatchObject({ exitCode: 0, timedOut: false });
      expect(result.stdout.trim()).toBe('2');
    });
    test('exec.stdin-bytes', 'delivers binary and large stdin byte for byte', async () => {
      const bytes = new Uint8Array(1024 * 1024 + 3).map((_, index) => (index * 7) % 256);
      const result = await client().exec('wc -c && echo done', { stdin: bytes, timeoutMs: scaled(20_000) });
      expect(result.stdout.split('\n').map((line) => line.trim())).toEqual([
        String(bytes.length),
        'done',
        '',
      ]);
      const empty = await client().exec('wc -c', { stdin: '', timeoutMs: scaled(10_000) });
      expect(empty.stdout.trim()).toBe('0');
    });
    test('exec.stdin-unread', 'returns normally when the command does not read its stdin', async () => {
      const result = await client().exec('echo ignored', {
        stdin: 'x'.repeat(4 * 1024 * 1024),
        timeoutMs: scaled(10_000),
      });
      expect(result, describeResult(result)).toMatchObject({
        exitCode: 0,
        stdout: 'ignored\n',
        timedOut: false,
      });
    });
  });

  describe('background children', () => {
    test(
      'exec.background-child',
      'returns soon after the shell exits although a background child holds stdout',
      async () => {
        const started = Date.now();
        const result = await client().exec('sleep 30 & echo "started $!"; exit 3', {
          timeoutMs: scaled(20_000),
        });
        const wallMs = Date.now() - started;
        expect(result, describeResult(result)).toMatchObject({ exitCode: 3, timedOut: false });
        expect(result.stdout).toMatch(/^started \d+\n$/);
        expect(wallMs).toBeLessThan(scaled(1500));
        const pid = result.stdout.trim().split(' ')[1] ?? '';
        await client().exec(formatCommand(['kill', pid]));
      },
    );
  });

  describe('streaming', () => {
    test('exec.streaming', 'calls onStdout and onStderr with chunks as they arrive', async () => {
      const decoder = { out: new TextDecoder(), err: new TextDecoder() };
      let out = '';
      let err = '';
      let firstChunkAt = 0;
      const started = Date.now();
      const result = await client().exec('echo first; echo oops >&2; sleep 1; echo second', {
        onStdout: (chunk) => {
          firstChunkAt ||= Date.now();
          out += decoder.out.decode(chunk, { stream: true });
        },
        onStderr: (chunk) => {
          err += decoder.err.decode(chunk, { stream: true });
        },
        timeoutMs: scaled(20_000),
      });
      const endedAt = Date.now();
      expect(out).toBe('first\nsecond\n');
      expect(err).toBe('oops\n');
      expect(result.stdout).toBe(out);
      expect(firstChunkAt - started).toBeLessThan(endedAt - started - 500);
    });
  });
}
