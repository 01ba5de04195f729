import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unquoteGitPath } from '../../src/diff/unquote-git-path.js';

describe('unquoteGitPath', () => {
  it.each([
    ['plain.txt', 'plain.txt'],
    ['"caf\\303\\251.txt"', 'café.txt'],
    ['"a/say \\"hi\\".txt"', 'a/say "hi".txt'],
    ['"tab\\there"', 'tab\there'],
    ['"new\\nline"', 'new\nline'],
    ['"back\\\\slash"', 'back\\slash'],
    ['"\\346\\227\\245\\346\\234\\254"', '日本'],
    ['"bad\\377byte"', 'bad\\377byte'],
    ['"half\\303"', 'half\\303'],
    ['"dangling\\"', '"dangling\\"'],
    ['"unknown\\q"', '"unknown\\q"'],
    ['"', '"'],
    ['""', ''],
  ])('%s → %j', (input, expected) => {
    expect(unquoteGitPath(input)).toBe(expected);
  });

  it('C09: turns the names real git quotes (core.quotePath default) back into the real names', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandkit-quote-'));
    try {
      const names = ['café.txt', 'say "hi".txt', 'tab\there.txt', 'back\\slash.txt', '日本.md'];
      const git = (...args: string[]) =>
        execFileSync('git', ['-C', dir, ...args], {
          encoding: 'utf8',
          env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null' },
        });
      git('init', '-q');
      for (const name of names) writeFileSync(join(dir, name), 'x\n');
      git('add', '-A');
      const printed = git('diff', '--cached', '--name-only').trim().split('\n');
      expect(printed.some((line) => line.startsWith('"'))).toBe(true);
      expect(printed.map(unquoteGitPath).sort()).toEqual([...names].sort());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('never throws, and returns any unquoted string unchanged', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const result = unquoteGitPath(text);
        if (!text.startsWith('"')) expect(result).toBe(text);
      }),
    );
  });

  it('inverts C-style quoting of any UTF-8 name', () => {
    const quote = (name: string) =>
      `"${[...Buffer.from(name, 'utf8')]
        .map((byte) =>
          byte === 0x22
            ? '\\"'
            : byte === 0x5c
              ? '\\\\'
              : byte < 0x20 || byte >= 0x7f
                ? `\\${byte.toString(8).padStart(3, '0')}`
                : String.fromCharCode(byte),
        )
        .join('')}"`;
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 1 }), (name) => {
        expect(unquoteGitPath(quote(name))).toBe(name);
      }),
    );
  });
});
