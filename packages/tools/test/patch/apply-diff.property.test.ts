import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SandboxHandle } from '@sandkit/core';
import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApplyDiffTool } from '../../src/patch/apply-diff.js';

let sandbox: SandboxHandle;
beforeAll(async () => {
  sandbox = await createLocalSandboxAdapter().create();
});
afterAll(() => sandbox.destroy());

/** `diff -u` (GNU diffutils) of two texts, with a/ b/ names; exit 1 means "differ". */
function unifiedDiff(before: string, after: string, name: string): string {
  const a = join(sandbox.workdir, '.before');
  const b = join(sandbox.workdir, '.after');
  execFileSync('sh', ['-c', 'printf %s "$1" > "$2"; printf %s "$3" > "$4"', 'sh', before, a, after, b]);
  try {
    execFileSync('diff', ['-u', '--label', `a/${name}`, '--label', `b/${name}`, a, b], { encoding: 'utf8' });
    return '';
  } catch (error) {
    return (error as { stdout: string }).stdout;
  } finally {
    execFileSync('rm', ['-f', a, b]);
  }
}

const line = fc.constantFrom('a', 'b', 'c', 'x = 1', 'return x', '', '  }', 'def f():');
const text = fc
  .tuple(fc.array(line, { minLength: 1, maxLength: 12 }), fc.boolean(), fc.boolean())
  .map(
    ([lines, finalNewline, crlf]) =>
      lines.join(crlf ? '\r\n' : '\n') + (finalNewline ? (crlf ? '\r\n' : '\n') : ''),
  );

describe('createApplyDiffTool (property)', () => {
  it('applies a real diff -u exactly, keeping line endings and the final-newline state, or changes nothing', async () => {
    const tool = createApplyDiffTool(sandbox.client, { root: sandbox.workdir });
    await fc.assert(
      fc.asyncProperty(text, text, fc.option(text), async (original, edited, maybeDrifted) => {
        const drifted = maybeDrifted ?? original;
        const diff = unifiedDiff(original, edited, 'f.txt');
        fc.pre(diff !== '');
        // the file may have drifted from what the diff was made against
        await writeFile(join(sandbox.workdir, 'f.txt'), drifted);
        const outcome = await tool.call({ diff }).then(
          () => 'applied',
          () => 'refused',
        );
        const now = await readFile(join(sandbox.workdir, 'f.txt'), 'utf8');
        if (drifted === original) expect(outcome).toBe('applied');
        if (outcome === 'refused') expect(now).toBe(drifted);
        if (outcome === 'applied' && drifted === original) expect(now).toBe(edited);
        expect(execFileSync('ls', ['-A', sandbox.workdir], { encoding: 'utf8' }).trim()).toBe('f.txt');
      }),
      { numRuns: 10 },
    );
  }, 120_000);
});
