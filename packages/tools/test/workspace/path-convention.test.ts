import { execFileSync } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import type { Tool } from '@sandkit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCodingTools } from '../../src/index.js';
import { createFileToolsSandbox, type FileToolsSandbox } from '../file-tools-sandbox.js';
import { toolError } from '../tool-error.js';

let box: FileToolsSandbox;
let tools: Map<string, Tool>;
beforeAll(async () => {
  box = await createFileToolsSandbox();
  execFileSync('git', ['init', '-q', box.root]);
  tools = new Map(createCodingTools(box.handle.client, { root: box.root }).map((tool) => [tool.name, tool]));
});
afterAll(() => box.handle.destroy());

const call = (name: string, input: Record<string, unknown>) => tools.get(name)!.call(input);

const shellPaths = [
  '~/.config/app/settings.json',
  '~',
  '~root/notes.txt',
  '$HOME/notes.txt',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the shell syntax under test
  '${HOME}/notes.txt',
  '$XDG_CONFIG_HOME',
  'file:///tmp/x.txt',
  'C:\\Users\\me\\x.txt',
  'C:/Users/me/x.txt',
  '\\\\server\\share\\x.txt',
];

describe('checkPathConvention', () => {
  describe('when a path is written in shell syntax, as a URL or as a Windows path', () => {
    it.each(shellPaths)('F03: every path field refuses %s, and nothing is created', async (path) => {
      const calls: [string, Record<string, unknown>][] = [
        ['write_file', { path, content: '{}\n' }],
        ['read_file', { path }],
        ['edit_file', { path, edits: [{ oldText: 'a', newText: 'b' }] }],
        ['delete_file', { path }],
        ['list_files', { path }],
        ['find_files', { pattern: '*', path }],
        ['search_files', { pattern: 'x', path }],
        ['exec', { command: 'true', cwd: path }],
        ['run_tests', { command: 'true', cwd: path }],
      ];
      for (const [name, input] of calls) {
        const error = await toolError(call(name, input));
        expect(error.code, name).toBe('invalid_arguments');
        expect(error.message, name).toContain('relative to the workspace root');
        expect(error.message, name).toContain('"~" and "$HOME" are not expanded');
      }
      const entries = (await readdir(box.root)).filter((name) => name !== '.git' && name !== '.sandkit');
      expect(entries).toEqual([]);
    });
  });

  describe('when a diff names such a path', () => {
    it('F03: apply_diff refuses ~/ and $HOME/ file names and creates nothing', async () => {
      for (const name of ['~/.profile', '$HOME/notes.txt']) {
        const diff = `--- /dev/null\n+++ b/${name}\n@@ -0,0 +1 @@\n+x\n`;
        const error = await toolError(call('apply_diff', { diff }));
        expect(error.code).toBe('invalid_arguments');
        expect(error.message).toContain('"~" and "$HOME" are not expanded');
      }
      const entries = (await readdir(box.root)).filter((name) => name !== '.git' && name !== '.sandkit');
      expect(entries).toEqual([]);
    });
  });

  describe('when a name really starts with ~ or $', () => {
    it('F03: reaches it as ./~name, and a ~ inside a path is an ordinary character', async () => {
      await call('write_file', { path: './~draft.txt', content: 'x\n' });
      await call('write_file', { path: 'notes/~old/$v.txt', content: 'y\n' });
      expect(await box.bytes('~draft.txt')).toEqual(Buffer.from('x\n'));
      expect(await box.bytes('notes/~old/$v.txt')).toEqual(Buffer.from('y\n'));
    });
  });
});
