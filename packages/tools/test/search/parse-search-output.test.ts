import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseGrepRecords } from '../../src/search/parse-grep-output.js';
import { parseRgJsonLine } from '../../src/search/parse-rg-json.js';

/** Runs a real search program over a temp dir with two files and returns its stdout. */
function realOutput(program: string, args: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'sandkit-parse-'));
  try {
    writeFileSync(join(dir, 'a:1.txt'), 'one\nfoo two\nthree\n');
    writeFileSync(join(dir, 'b\nc.txt'), Buffer.from([0x66, 0x6f, 0x6f, 0xff, 0x0a]));
    return execFileSync(program, args, { cwd: dir, encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('parseRgJsonLine', () => {
  it('parses real rg --json output with context, a colon in a name and non-UTF-8 text', () => {
    const out = realOutput('rg', ['--json', '--sort', 'path', '-C', '1', '-e', 'foo', '--', '.']);
    const records = out
      .split('\n')
      .map(parseRgJsonLine)
      .filter((r) => r !== undefined);
    expect(records).toEqual([
      { path: 'a:1.txt', line: 1, kind: 'context', text: 'one' },
      { path: 'a:1.txt', line: 2, kind: 'match', text: 'foo two' },
      { path: 'a:1.txt', line: 3, kind: 'context', text: 'three' },
      { path: 'b\nc.txt', line: 1, kind: 'match', text: 'foo\ufffd' },
    ]);
  });

  it.each([
    ['begin', '{"type":"begin","data":{"path":{"text":"./x"}}}'],
    ['summary', '{"data":{"stats":{}},"type":"summary"}'],
    ['cut JSON', '{"type":"match","data":{"path":{"text":"./x"'],
    ['wrong shapes', '{"type":"match","data":{"path":1,"lines":{"text":"x"},"line_number":"2"}}'],
  ])('ignores %s', (_name, line) => {
    expect(parseRgJsonLine(line)).toBeUndefined();
  });

  it('decodes base64 "bytes" data', () => {
    const line = JSON.stringify({
      type: 'match',
      data: {
        path: { bytes: Buffer.from('../p/xff').toString('base64') },
        lines: { bytes: 'YWJj//4K' },
        line_number: 4,
      },
    });
    expect(parseRgJsonLine(line)).toMatchObject({ line: 4, text: 'abc\ufffd\ufffd' });
  });

  it('never throws', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json().map((j) => `{"type":"match",${j.slice(1)}`),
        ),
        (line) => void parseRgJsonLine(line),
      ),
    );
  });
});

describe('parseGrepRecords', () => {
  it('parses real grep -r -n -Z -C1 output, names with ":" and newlines kept whole', () => {
    const out = realOutput('grep', ['-r', '-n', '-Z', '-C', '1', '-a', '-e', 'foo', '--', '.']);
    const records = parseGrepRecords(out, true).records.sort(
      (x, y) => x.path.localeCompare(y.path) || x.line - y.line,
    );
    expect(records).toEqual([
      { path: 'a:1.txt', line: 1, kind: 'context', text: 'one' },
      { path: 'a:1.txt', line: 2, kind: 'match', text: 'foo two' },
      { path: 'a:1.txt', line: 3, kind: 'context', text: 'three' },
      { path: 'b\nc.txt', line: 1, kind: 'match', text: 'foo\ufffd' },
    ]);
  });

  it('keeps an incomplete record for the next chunk', () => {
    const first = parseGrepRecords('./a\x002:x\n./b\x003:y');
    expect(first.records).toEqual([{ path: 'a', line: 2, kind: 'match', text: 'x' }]);
    expect(parseGrepRecords(`${first.rest}z\n`).records).toEqual([
      { path: 'b', line: 3, kind: 'match', text: 'yz' },
    ]);
  });

  it('never throws and consumes the input', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string(), fc.constantFrom('\0', '\n', '--\n', '12:', '3-', './')), {
          maxLength: 30,
        }),
        (parts) => {
          const text = parts.join('');
          const { records, rest } = parseGrepRecords(text);
          expect(rest.length).toBeLessThanOrEqual(text.length);
          for (const record of records) expect(record.line).toBeGreaterThanOrEqual(0);
        },
      ),
    );
  });
});
