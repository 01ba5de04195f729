import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeUtf8 } from '../../../src/eval/load/decode-utf8.js';

const dir = mkdtempSync(join(tmpdir(), 'grade-one-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('decodeUtf8', () => {
  /** What grade read a log with before: `readFileSync(file, 'utf8')` of the bytes written to a file. */
  const readAsBefore = (bytes: Uint8Array): string => {
    const file = join(dir, 'log');
    writeFileSync(file, bytes);
    return readFileSync(file, 'utf8');
  };

  it.each([
    ['ASCII', Buffer.from('PASSED tests/t.py::test_x[a b]\r\n\x1b[32mok\x1b[0m\n')],
    ['UTF-8 text', Buffer.from('PASSED tests/t.py::test_ü[✓ 日本]\n')],
    ['a byte order mark', Buffer.from('\ufeffPASSED t.py::x\n')],
    ['Latin-1 bytes that are not UTF-8', Buffer.from([0x50, 0xe9, 0x0a, 0xff, 0x80])],
    ['a UTF-8 sequence cut short', Buffer.from([0x61, 0xe2, 0x9c])],
    ['nothing', Buffer.alloc(0)],
  ])('gives the text readFileSync(file, "utf8") gives for %s', (_, bytes) => {
    expect(decodeUtf8(bytes)).toBe(readAsBefore(bytes));
  });

  it('gives the text readFileSync(file, "utf8") gives for any bytes, mostly ASCII or not', () => {
    const asciiHeavy = fc
      .uint8Array({ maxLength: 300 })
      .map((bytes) => bytes.map((b) => (b % 3 === 0 ? b : b & 0x7f)));
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 300 }),
          asciiHeavy,
          fc.string({ unit: 'grapheme' }).map((s) => Buffer.from(s)),
        ),
        (bytes) => {
          expect(decodeUtf8(Buffer.from(bytes))).toBe(readAsBefore(bytes));
        },
      ),
    );
  });
});
