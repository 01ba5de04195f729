import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitPatch } from '../../../src/eval/instance/patch-files.js';

/** git's quote_c_style with core.quotePath=true: octal for bytes ≥ 0x80 and controls, \" and \\. */
function quoteLikeGit(path: string): string {
  let out = '';
  let quoted = false;
  for (const byte of Buffer.from(path)) {
    if (byte === 0x22 || byte === 0x5c) {
      out += `\\${String.fromCharCode(byte)}`;
      quoted = true;
    } else if (byte < 0x20 || byte >= 0x7f) {
      out += `\\${byte.toString(8).padStart(3, '0')}`;
      quoted = true;
    } else out += String.fromCharCode(byte);
  }
  return quoted ? `"${out}"` : out;
}

describe('splitPatch', () => {
  it('C09: reads back any path git quotes in its headers, as the real UTF-8 string', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', minLength: 1 }).filter((s) => !/[\0\n]/.test(s) && !s.startsWith(' ')),
        (path) => {
          const a = quoteLikeGit(`a/${path}`);
          const b = quoteLikeGit(`b/${path}`);
          const patch = `diff --git ${a} ${b}\n--- ${a}\n+++ ${b}\n@@ -1 +1 @@\n-x\n+y\n`;
          const [file] = splitPatch(patch).files;
          expect([file?.oldPath, file?.newPath]).toEqual([path, path]);
        },
      ),
    );
  });
});

describe('splitPatch', () => {
  it('C09: reads quoted names from diff --git headers, including binary sections without ---/+++ lines', () => {
    const patch = [
      'diff --git "a/caf\\303\\251.txt" "b/caf\\303\\251.txt"',
      '--- "a/caf\\303\\251.txt"',
      '+++ "b/caf\\303\\251.txt"',
      '@@ -1 +1,2 @@',
      ' one',
      '+two',
      'diff --git "a/\\346\\227\\245\\346\\234\\254.png" "b/\\346\\227\\245\\346\\234\\254.png"',
      'Binary files "a/\\346\\227\\245\\346\\234\\254.png" and "b/\\346\\227\\245\\346\\234\\254.png" differ',
      'diff --git a/new file.txt b/new file.txt',
      'new file mode 100644',
      '--- /dev/null',
      '+++ b/new file.txt',
      '@@ -0,0 +1 @@',
      '+x',
      '',
    ].join('\n');
    const { files } = splitPatch(patch);
    expect(files.map((f) => [f.oldPath, f.newPath, f.binaryWithoutData])).toEqual([
      ['café.txt', 'café.txt', false],
      ['日本.png', '日本.png', true],
      [null, 'new file.txt', false],
    ]);
  });

  it('splits plain diffs without git headers and keeps the preamble apart', () => {
    const patch =
      'Subject: fix\n\n--- a/x.py\t2024-01-01\n+++ b/x.py\t2024-01-02\n@@ -1 +1 @@\n-a\n+b\n--- a/y.py\n+++ b/y.py\n@@ -1 +1 @@\n-c\n+d\n';
    const split = splitPatch(patch);
    expect(split.preamble).toBe('Subject: fix\n\n');
    expect(split.files.map((f) => f.newPath)).toEqual(['x.py', 'y.py']);
  });
});
