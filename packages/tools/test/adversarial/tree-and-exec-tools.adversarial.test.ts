/**
 * Hostile and confused calls to search_files, list_files, find_files, apply_diff, git_diff, git_clone,
 * exec, read_output, kill_process and run_tests, made through executeToolCall as a model would.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { executeToolCall } from '@sandkit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCodingTools } from '../../src/index.js';
import {
  type AdversarialSandbox,
  contentText,
  createAdversarialSandbox,
  errorCode,
  testMaxOutputBytes,
} from './adversarial-sandbox.js';

let box: AdversarialSandbox;
let outsideBefore: string;
beforeAll(async () => {
  box = await createAdversarialSandbox();
  outsideBefore = await box.outsideSnapshot();
});
afterAll(async () => {
  expect(await box.outsideSnapshot()).toBe(outsideBefore);
  await box.destroy();
});

interface ExecOutput {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  truncated: boolean;
  stdoutBytes: number;
}

describe('search, list and find stay inside the root', () => {
  it("answers a NUL byte in a search or find pattern as the caller's invalid_arguments, not internal", async () => {
    const search = await box.call('search_files', { pattern: 'ne\u0000dle' });
    expect(errorCode(search)).toBe('invalid_arguments');
    expect(contentText(search)).toMatch(/NUL byte/);
    expect(errorCode(await box.call('find_files', { pattern: 'a\u0000.txt' }))).toBe('invalid_arguments');
  });

  it('answers a NUL byte in a glob, a git revision or branch, or a command as invalid_arguments, not internal', async () => {
    const calls: [string, Record<string, unknown>][] = [
      ['list_files', { glob: 'a\u0000b' }],
      ['search_files', { pattern: 'hello', glob: 'a\u0000b' }],
      ['git_diff', { base: 'HEAD\u0000' }],
      ['git_clone', { url: '/nonexistent', branch: 'main\u0000' }],
      ['exec', { command: 'echo a\u0000b' }],
      ['run_tests', { command: 'true\u0000' }],
    ];
    for (const [name, input] of calls) {
      const result = await box.call(name, input);
      expect(errorCode(result), name).toBe('invalid_arguments');
      expect(contentText(result), name).toMatch(/NUL byte/);
    }
  });

  it('refuses search/list/find paths that escape through .., / or a symlink', async () => {
    for (const path of ['..', '/etc', 'a/../../', 'outlink', 'slash/etc']) {
      expect(errorCode(await box.call('search_files', { pattern: 'SECRET', path })), `search ${path}`).toBe(
        'outside_root',
      );
      expect(errorCode(await box.call('list_files', { path })), `list ${path}`).toBe('outside_root');
      expect(errorCode(await box.call('find_files', { pattern: '*', path })), `find ${path}`).toBe(
        'outside_root',
      );
    }
  });

  it('never reports outside content through symlinks or ../ globs when searching the whole root', async () => {
    for (const glob of ['**/../..', '../**', '**/*', 'outlink/**']) {
      const result = await box.call('search_files', { pattern: 'SECRET', glob });
      expect(result.isError, glob).toBe(false);
      expect(JSON.stringify(result.output), glob).not.toContain('SECRET');
    }
    const found = await box.call('find_files', { pattern: '../*' });
    expect((found.output as { files: string[] }).files).toEqual([]);
  });

  it('answers an invalid regex with invalid_pattern and a catastrophic one promptly', async () => {
    const bad = await box.call('search_files', { pattern: '(' });
    expect(errorCode(bad)).toBe('invalid_pattern');
    expect(contentText(bad)).toMatch(/fixedStrings/);
    await box.put('aaa.txt', `${'a'.repeat(5000)}!\n`);
    const slow = await box.call('search_files', { pattern: '(a+)+$' });
    expect(slow.isError).toBe(false);
  });

  it('treats a pattern or path starting with "-" as data, not an option', async () => {
    await box.put('dash.txt', 'run rm -rf now\n');
    const result = await box.call('search_files', { pattern: '-rf' });
    expect((result.output as { matches: { path: string }[] }).matches.map((m) => m.path)).toEqual([
      'dash.txt',
    ]);
    expect(errorCode(await box.call('list_files', { path: '-rf' }))).toBe('not_found');
    expect((await box.call('find_files', { pattern: '-delete' })).isError).toBe(false);
    expect(existsSync(join(box.root, 'a.txt'))).toBe(true);
  });

  it('does not hang on a FIFO in the tree', async () => {
    const listed = await box.call('list_files', { path: '.', recursive: true });
    expect(JSON.stringify(listed.output)).toContain('"fifo"');
    expect((await box.call('find_files', { pattern: '**/*' })).isError).toBe(false);
    expect((await box.call('search_files', { pattern: 'zzz' })).isError).toBe(false);
    expect(errorCode(await box.call('list_files', { path: 'fifo' }))).not.toBe('internal');
  });

  it('answers out-of-range numbers with invalid_arguments', async () => {
    const cases: [string, unknown][] = [
      ['search_files', { pattern: 'x', context: 11 }],
      ['search_files', { pattern: 'x', context: -3 }],
      ['search_files', { pattern: 'x', maxMatches: 0 }],
      ['search_files', { pattern: '' }],
      ['list_files', { offset: 1.5 }],
      ['list_files', { limit: 5000 }],
      ['find_files', { pattern: '*', limit: -1 }],
      ['find_files', { pattern: '' }],
    ];
    for (const [name, input] of cases) {
      expect(errorCode(await box.call(name, input)), `${name} ${JSON.stringify(input)}`).toBe(
        'invalid_arguments',
      );
    }
  });

  it('pages through 1500 entries with list_files and find_files, each exactly once', async () => {
    await mkdir(join(box.root, 'many'));
    await Promise.all(
      Array.from({ length: 1500 }, (_, i) => writeFile(join(box.root, 'many', `f${i}.txt`), '')),
    );
    const maxOutputBytes = 30_000;
    const tools = createCodingTools(box.handle.client, { root: box.root, maxOutputBytes });
    for (const name of ['list_files', 'find_files']) {
      const seen: string[] = [];
      let offset: number | undefined = 0;
      for (let page = 0; offset !== undefined && page < 50; page++) {
        const input = {
          path: 'many',
          ...(name === 'find_files' ? { pattern: '*.txt' } : {}),
          limit: 1000,
          offset,
        };
        const result = await executeToolCall(tools, { name, input });
        const out = result.output as { entries?: { path: string }[]; files?: string[]; nextOffset?: number };
        expect(Buffer.byteLength(contentText(result))).toBeLessThanOrEqual(maxOutputBytes);
        seen.push(...(out.entries ? out.entries.map((e) => e.path) : (out.files ?? [])));
        offset = out.nextOffset;
      }
      expect(seen.length, name).toBe(1500);
      expect(new Set(seen).size, name).toBe(1500);
    }
  }, 60_000);
});

describe('apply_diff with hostile diffs', () => {
  const hostile = [
    '--- a/../outside.txt\n+++ b/../outside.txt\n@@ -0,0 +1 @@\n+pwn\n',
    '--- /dev/null\n+++ b/outlink/evil.txt\n@@ -0,0 +1 @@\n+pwn\n',
    '--- a/secretlink\n+++ b/secretlink\n@@ -1 +1 @@\n-SECRET\n+pwned\n',
    '--- a/a.txt\n+++ b/slash/tmp/evil.txt\n@@ -1,2 +1,2 @@\n hello\n-world\n+WORLD\n',
    'diff --git a/a.txt b/a.txt\nrename from a.txt\nrename to ../renamed.txt\n',
  ];

  it('refuses diffs that touch outside the root (.., symlinked dir, symlinked file) and changes nothing', async () => {
    for (const diff of hostile) {
      expect(errorCode(await box.call('apply_diff', { diff })), diff).toBe('outside_root');
    }
    expect(await box.text('a.txt')).toBe('hello\nworld\n');
    expect(existsSync(join(box.root, '..', 'outside.txt'))).toBe(false);
    expect(existsSync(join(box.root, '..', 'renamed.txt'))).toBe(false);
  });

  it('refuses garbage, /dev/null on both sides and a cwd outside with error results', async () => {
    expect(errorCode(await box.call('apply_diff', { diff: 'garbage\nmore' }))).toBe('invalid_patch');
    const both = '--- /dev/null\n+++ /dev/null\n@@ -0,0 +1 @@\n+x\n';
    expect(errorCode(await box.call('apply_diff', { diff: both }))).toBe('invalid_patch');
    const ok = '--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n hello\n-world\n+WORLD\n';
    expect(errorCode(await box.call('apply_diff', { diff: ok, cwd: '../' }))).toBe('outside_root');
    expect(await box.text('a.txt')).toBe('hello\nworld\n');
  });

  it('applies all files of a diff or none: a failing second file leaves the first unchanged', async () => {
    const diff =
      '--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n hello\n-world\n+WORLD\n' +
      '--- a/nope.txt\n+++ b/nope.txt\n@@ -1 +1 @@\n-x\n+y\n';
    expect((await box.call('apply_diff', { diff })).isError).toBe(true);
    expect(await box.text('a.txt')).toBe('hello\nworld\n');
  });

  it('refuses a diff over the size limit with invalid_arguments', async () => {
    const diff = `--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-${'a'.repeat(5 * 1024 * 1024)}\n+b\n`;
    expect(errorCode(await box.call('apply_diff', { diff }))).toBe('invalid_arguments');
  });
});

describe('git tools on bad input', () => {
  it('git_diff outside a repository and git_clone of a missing source are error results', async () => {
    expect((await box.call('git_diff', {})).isError).toBe(true);
    expect(errorCode(await box.call('git_clone', { url: '/nonexistent/repo' }))).toBe('command_failed');
  });

  it('git_clone refuses a destination outside the root and option-like urls', async () => {
    for (const dest of ['..', '../x', 'outlink/x', '/tmp/x']) {
      expect(errorCode(await box.call('git_clone', { url: '/nonexistent/repo', dest })), dest).toBe(
        'outside_root',
      );
    }
    const marker = join(box.outside, 'pwned');
    for (const url of [`--upload-pack=touch ${marker}`, `ext::sh -c touch% ${marker}`]) {
      expect((await box.call('git_clone', { url })).isError, url).toBe(true);
    }
    expect(existsSync(marker)).toBe(false);
  });
});

describe('exec, read_output, kill_process and run_tests on hostile commands', () => {
  it('reports the real exit code after the command closes its own stdout', async () => {
    const result = await box.call('exec', { command: 'exec 1>&-; echo gone; echo err >&2; exit 3' });
    const out = result.output as ExecOutput;
    expect(out.exitCode).toBe(3);
    expect(out.stderr).toContain('err');
  });

  it('does not invent an exit code when the shell kills itself with SIGKILL', async () => {
    const out = (await box.call('exec', { command: 'kill -9 $$' })).output as ExecOutput;
    expect(out.exitCode).toBeNull();
    expect(out.timedOut).toBe(false);
  });

  it('kills every process of a fork-bomb-lite at the timeout', async () => {
    const marker = `advsleep${process.pid}`;
    const command = `for i in 1 2 3 4 5 6; do (exec -a ${marker} sleep 300 &); done; sleep 300`;
    const out = (await box.call('exec', { command: `bash -c '${command}'`, timeoutMs: 1000 }))
      .output as ExecOutput;
    expect(out.timedOut).toBe(true);
    expect(out.exitCode).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const left = execFileSync('sh', ['-c', `pgrep -f '^${marker}' || true`], { encoding: 'utf8' }).trim();
    expect(left).toBe('');
  });

  it('caps 20 MB of output at maxOutputBytes and never splits a UTF-8 character', async () => {
    const big = (await box.call('exec', { command: 'head -c 20000000 /dev/zero | tr "\\0" x' }))
      .output as ExecOutput;
    expect(big.truncated).toBe(true);
    expect(big.stdoutBytes).toBe(20_000_000);
    expect(Buffer.byteLength(big.stdout)).toBeLessThanOrEqual(testMaxOutputBytes + 400);
    for (const offset of [0, 1]) {
      const command = `printf '${'x'.repeat(offset)}'; python3 -c 'import sys; sys.stdout.write("é€"*3000)'`;
      const out = (await box.call('exec', { command })).output as ExecOutput;
      expect(out.truncated).toBe(true);
      expect(out.stdout).not.toContain('\ufffd');
    }
  });

  it('returns binary output without failing and counts its real bytes', async () => {
    const out = (await box.call('exec', { command: "printf '\\377\\376\\000abc\\342\\202'" }))
      .output as ExecOutput;
    expect(out.exitCode).toBe(0);
    expect(out.stdoutBytes).toBe(8);
  });

  it('answers bogus process ids and cwd outside or on a file with error results', async () => {
    for (const processId of ['bogus', '../../etc/passwd', '1']) {
      expect(errorCode(await box.call('read_output', { processId }))).toBe('unknown_process');
      expect(errorCode(await box.call('kill_process', { processId }))).toBe('unknown_process');
    }
    expect(errorCode(await box.call('exec', { command: 'pwd', cwd: '../' }))).toBe('outside_root');
    expect(errorCode(await box.call('exec', { command: 'pwd', cwd: 'outlink' }))).toBe('outside_root');
    expect(errorCode(await box.call('exec', { command: 'pwd', cwd: 'a.txt' }))).toBe('not_found');
    expect(errorCode(await box.call('exec', { command: 'true', timeoutMs: -5 }))).toBe('invalid_arguments');
    expect(errorCode(await box.call('exec', { command: '' }))).toBe('invalid_arguments');
  });

  it('run_tests without a framework says to pass a command, and garbage output stays unparsed with the real exit code', async () => {
    expect(errorCode(await box.call('run_tests', {}))).toBe('not_found');
    const result = await box.call('run_tests', { command: 'echo garbage; echo "FAIL: ???"; exit 1' });
    const out = result.output as { exitCode: number; unparsed?: boolean };
    expect(out.exitCode).toBe(1);
    expect(out.unparsed).toBe(true);
  });
});
