import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePatchOutput } from '../../src/patch/parse-patch-output.js';

// Output of GNU patch 2.7.6 (`--quoting-style=literal`), recorded on this machine.
describe('parsePatchOutput', () => {
  it.each([
    ['a clean file', 'checking file data.txt\n', [{ path: 'data.txt', hunks: [], notices: [] }]],
    [
      'fuzz and offset',
      'checking file m.py\nHunk #1 succeeded at 6 with fuzz 1 (offset 5 lines).\n',
      [
        {
          path: 'm.py',
          hunks: [{ hunk: 1, outcome: 'succeeded', line: 6, fuzz: 1, offset: 5 }],
          notices: [],
        },
      ],
    ],
    [
      'a failed hunk with different line endings',
      'checking file crlf.txt\nHunk #1 FAILED at 1 (different line endings).\n1 out of 1 hunk FAILED\n',
      [
        {
          path: 'crlf.txt',
          hunks: [
            { hunk: 1, outcome: 'failed', line: 1, fuzz: 0, offset: 0, note: 'different line endings' },
          ],
          notices: [],
        },
      ],
    ],
    [
      'a name with spaces and a rename',
      'checking file sp ace 2.txt (renamed from sp ace.txt)\nHunk #2 FAILED at 5.\n',
      [
        {
          path: 'sp ace 2.txt',
          hunks: [{ hunk: 2, outcome: 'failed', line: 5, fuzz: 0, offset: 0 }],
          notices: [],
        },
      ],
    ],
    [
      'a reversed patch',
      'checking file n.py\nReversed (or previously applied) patch detected!  Skipping patch.\n1 out of 1 hunk ignored\n',
      [
        {
          path: 'n.py',
          hunks: [],
          notices: ['Reversed (or previously applied) patch detected!  Skipping patch.'],
        },
      ],
    ],
    [
      'a missing file',
      "can't find file to patch at input line 7\nPerhaps you used the wrong -p or --strip option?\nNo file to patch.  Skipping patch.\n1 out of 1 hunk ignored\n",
      [{ path: undefined, hunks: [], notices: ["can't find file to patch at input line 7"] }],
    ],
  ])('%s', (_name, text, expected) => {
    expect(parsePatchOutput(text)).toEqual(expected);
  });

  it('never throws and only reports positive hunk numbers', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.string(),
            fc.constantFrom(
              'checking file x\n',
              'Hunk #1 FAILED at 3.\n',
              'Hunk #2 succeeded at 1 with fuzz 2.\n',
              '\n',
            ),
          ),
        ),
        (parts) => {
          for (const file of parsePatchOutput(parts.join('')))
            for (const hunk of file.hunks) expect(hunk.hunk).toBeGreaterThan(0);
        },
      ),
    );
  });
});
