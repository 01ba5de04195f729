import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseUnifiedDiff } from '../../src/diff/parse-unified-diff.js';

describe('parseUnifiedDiff', () => {
  it('reads a git diff with a new file, a deletion, a rename and C-quoted names (C09)', () => {
    const diff = [
      'diff --git a/new.txt b/new.txt',
      'new file mode 100644',
      'index 0000000..e69de29',
      '--- /dev/null',
      '+++ b/new.txt',
      '@@ -0,0 +1 @@',
      '+x',
      'diff --git a/gone.txt b/gone.txt',
      'deleted file mode 100644',
      '--- a/gone.txt',
      '+++ /dev/null',
      '@@ -1 +0,0 @@',
      '-y',
      'diff --git "a/caf\\303\\251.txt" "b/say \\"hi\\".txt"',
      'similarity index 90%',
      'rename from "caf\\303\\251.txt"',
      'rename to "say \\"hi\\".txt"',
    ].join('\n');
    const parsed = parseUnifiedDiff(diff);
    expect(parsed.errors).toEqual([]);
    expect(parsed.files.map(({ oldPath, newPath, status }) => ({ oldPath, newPath, status }))).toEqual([
      { oldPath: null, newPath: 'new.txt', status: 'added' },
      { oldPath: 'gone.txt', newPath: null, status: 'deleted' },
      { oldPath: 'café.txt', newPath: 'say "hi".txt', status: 'renamed' },
    ]);
  });

  it.each([
    ['a/ b/ names → strip 1', '--- a/x/y.py\n+++ b/x/y.py\n@@ -1 +1 @@\n-a\n+b\n', 'x/y.py'],
    ['plain names → strip 0', '--- x/y.py\n+++ x/y.py\n@@ -1 +1 @@\n-a\n+b\n', 'x/y.py'],
    [
      'a timestamp after a tab',
      '--- a/my file.py\t2024-01-01 10:00:00\n+++ b/my file.py\t2024-01-01\n@@ -1 +1 @@\n-a\n+b\n',
      'my file.py',
    ],
    [
      'a timestamp after spaces',
      '--- a/f.py 2024-01-01 10:00:00.000000000 +0000\n+++ b/f.py 2024-01-01 10:00:00.000000000 +0000\n@@ -1 +1 @@\n-a\n+b\n',
      'f.py',
    ],
  ])('finds the name: %s', (_name, diff, path) => {
    expect(parseUnifiedDiff(diff).files[0]?.newPath).toBe(path);
  });

  it('recounts a hunk whose header counts are wrong and keeps a format-patch signature out', () => {
    const parsed = parseUnifiedDiff('--- a/f\n+++ b/f\n@@ -1,9 +1,9 @@\n a\n-b\n+c\n\n d\n-- \n2.39.5\n');
    const hunk = parsed.files[0]!.hunks[0]!;
    expect(hunk).toMatchObject({ oldLines: 4, newLines: 4, recounted: true });
    expect(hunk.lines).toEqual([' a', '-b', '+c', ' ', ' d']);
  });

  it('keeps "\\ No newline at end of file" markers and CR of a CRLF diff', () => {
    const hunk = parseUnifiedDiff(
      '--- a/f\r\n+++ b/f\r\n@@ -1 +1 @@\r\n-a\r\n\\ No newline at end of file\r\n+b\r\n',
    ).files[0]!.hunks[0]!;
    expect(hunk.lines).toEqual(['-a\r', '\\ No newline at end of file', '+b\r']);
    expect(hunk.recounted).toBe(false);
  });

  it('reports text without file headers and a binary patch', () => {
    expect(parseUnifiedDiff('hello\n').errors[0]).toMatch(/no file headers/);
    expect(
      parseUnifiedDiff('diff --git a/x.png b/x.png\nBinary files a/x.png and b/x.png differ\n').files[0]
        ?.binary,
    ).toBe(true);
  });

  it('never throws on arbitrary text and never reports negative counts', () => {
    const pieces = fc.constantFrom(
      '--- a/x\n',
      '+++ b/x\n',
      '@@ -1,2 +1 @@\n',
      ' c\n',
      '-d\n',
      '+e\n',
      '\\ No newline\n',
      'diff --git a/x b/x\n',
      '\n',
      '"',
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string(), pieces), { maxLength: 40 }), (parts) => {
        for (const file of parseUnifiedDiff(parts.join('')).files) {
          for (const hunk of file.hunks) {
            expect(hunk.oldLines).toBeGreaterThanOrEqual(0);
            expect(hunk.newLines).toBeGreaterThanOrEqual(0);
          }
        }
      }),
    );
  });
});
