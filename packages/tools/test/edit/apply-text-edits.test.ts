import { ToolError } from '@sandkit/core';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyTextEdits } from '../../src/edit/apply-text-edits.js';
import { createEditFileTool } from '../../src/edit/edit-file.js';
import { createFileToolsSandbox, type FileToolsSandbox } from '../file-tools-sandbox.js';

/** Byte tokens a file is built from: CRLF and LF, lone CR, tabs, non-ASCII, invalid UTF-8, `$`. */
const tokens = [
  ...['a', 'b', 'ab', ' ', '\t', '\n', '\r\n', '\r', 'é', '’', '😀', '$&'].map((t) => Buffer.from(t, 'utf8')),
  ...[[0xe9], [0xff], [0x80]].map((b) => Buffer.from(b)),
];
const newTexts = ['', 'X', 'a', 'new\ttext', '$1 $$', '’', 'two\nlines'];
const decoder = new TextDecoder();

/** A file as a token list, and a token range [from, to) whose decoded text becomes oldText. */
const editCase = fc
  .record({
    bom: fc.boolean(),
    parts: fc.array(fc.integer({ min: 0, max: tokens.length - 1 }), { minLength: 1, maxLength: 40 }),
    range: fc.tuple(fc.nat(), fc.nat()),
    newText: fc.constantFrom(...newTexts),
  })
  .map(({ bom, parts, range, newText }) => {
    const chunks = parts.map((i) => tokens[i]!);
    const from = range[0] % chunks.length;
    const to = from + 1 + (range[1] % (chunks.length - from));
    const head = bom ? Buffer.from([0xef, 0xbb, 0xbf]) : Buffer.alloc(0);
    const bytes = Buffer.concat([head, ...chunks]);
    let start = head.length + Buffer.concat(chunks.slice(0, from)).length;
    const end = head.length + Buffer.concat(chunks.slice(0, to)).length;
    const oldText = decoder.decode(bytes.subarray(start, end));
    // A match starting at the `\n` of a CRLF takes its `\r` with it (a CRLF is one line break).
    if (bytes[start] === 0x0a && bytes[start - 1] === 0x0d) start--;
    // A range ending between the `\r` and `\n` of a CRLF is no match there (a CRLF is one line
    // break); its text may still occur elsewhere, so the spliced bytes are not known for it.
    const splitsCrlf = bytes[end - 1] === 0x0d && bytes[end] === 0x0a;
    return { bytes, start, end, oldText, newText, splitsCrlf };
  });

/** A file and two edits, each oldText taken from a range of that file. */
const batchCase = fc
  .record({
    parts: fc.array(fc.integer({ min: 0, max: tokens.length - 1 }), { minLength: 2, maxLength: 40 }),
    ranges: fc.tuple(fc.nat(), fc.nat(), fc.nat(), fc.nat()),
    newTexts: fc.tuple(fc.constantFrom(...newTexts), fc.constantFrom(...newTexts)),
  })
  .map(({ parts, ranges, newTexts: [n1, n2] }) => {
    const chunks = parts.map((i) => tokens[i]!);
    const bytes = Buffer.concat(chunks);
    const edit = (r0: number, r1: number, newText: string) => {
      const from = r0 % chunks.length;
      const to = from + 1 + (r1 % (chunks.length - from));
      let start = Buffer.concat(chunks.slice(0, from)).length;
      const end = Buffer.concat(chunks.slice(0, to)).length;
      const oldText = decoder.decode(bytes.subarray(start, end));
      if (bytes[start] === 0x0a && bytes[start - 1] === 0x0d) start--;
      const splitsCrlf = bytes[end - 1] === 0x0d && bytes[end] === 0x0a;
      return { start, end, oldText, newText, splitsCrlf };
    };
    return { bytes, first: edit(ranges[0], ranges[1], n1), second: edit(ranges[2], ranges[3], n2) };
  });

/** Asserts `after` keeps `before[0, start)` and `before[end, )` byte for byte. */
function expectOutsideKept(before: Buffer, after: Uint8Array, start: number, end: number): void {
  const tail = before.length - end;
  expect(Buffer.from(after.subarray(0, start))).toEqual(before.subarray(0, start));
  expect(Buffer.from(after.subarray(after.length - tail))).toEqual(before.subarray(end));
}

describe('applyTextEdits', () => {
  it('applies or rejects with a ToolError, and keeps every byte outside its match (property)', () => {
    let applied = 0;
    fc.assert(
      fc.property(editCase, ({ bytes, start, end, oldText, newText, splitsCrlf }) => {
        const original = Buffer.from(bytes);
        let result: ReturnType<typeof applyTextEdits>;
        try {
          result = applyTextEdits(bytes, [{ oldText, newText }]);
        } catch (error) {
          expect(ToolError.isInstance(error)).toBe(true);
          expect(bytes).toEqual(original);
          return;
        }
        applied++;
        expect(result.bytes).not.toEqual(original);
        if (splitsCrlf) return;
        expectOutsideKept(original, result.bytes, start, end);
        if (!newText.includes('\n'))
          expect(
            Buffer.from(result.bytes.subarray(start, result.bytes.length - (original.length - end))),
          ).toEqual(Buffer.from(newText, 'utf8'));
      }),
      { numRuns: 3000 },
    );
    expect(applied).toBeGreaterThan(100);
  });

  it('applies a batch of two edits entirely (as each alone would) or not at all (property)', () => {
    let applied = 0;
    fc.assert(
      fc.property(batchCase, ({ bytes, first, second }) => {
        const edits = [first, second].map(({ oldText, newText }) => ({ oldText, newText }));
        let result: ReturnType<typeof applyTextEdits>;
        try {
          result = applyTextEdits(bytes, edits);
        } catch (error) {
          expect(ToolError.isInstance(error)).toBe(true);
          return;
        }
        applied++;
        if (first.splitsCrlf || second.splitsCrlf) return;
        // Each edit alone must apply too; the batch is both replacements spliced into the original.
        const [a, b] = [first, second].map((edit) => {
          const alone = applyTextEdits(bytes, [edit]).bytes;
          return {
            ...edit,
            middle: Buffer.from(alone.subarray(edit.start, alone.length - (bytes.length - edit.end))),
          };
        });
        const [x, y] = a!.start <= b!.start ? [a!, b!] : [b!, a!];
        const expected = Buffer.concat([
          bytes.subarray(0, x.start),
          x.middle,
          bytes.subarray(x.end, y.start),
          y.middle,
          bytes.subarray(y.end),
        ]);
        expect(Buffer.from(result.bytes)).toEqual(expected);
      }),
      { numRuns: 2000 },
    );
    expect(applied).toBeGreaterThan(20);
  });
});

describe('edit_file on real files', () => {
  let box: FileToolsSandbox;
  beforeAll(async () => {
    box = await createFileToolsSandbox();
  });
  afterAll(() => box.handle.destroy());

  it('writes nothing on a rejected edit and only the match on an applied one (property, real files)', async () => {
    const tool = createEditFileTool(box.handle.client, { root: box.root });
    let run = 0;
    await fc.assert(
      fc.asyncProperty(editCase, async ({ bytes, start, end, oldText, newText, splitsCrlf }) => {
        const path = `prop-${run++}.txt`;
        await box.put(path, bytes);
        const outcome = await tool.call({ path, edits: [{ oldText, newText }] }).then(
          () => 'applied',
          (error: unknown) => {
            if (!ToolError.isInstance(error)) throw error;
            return 'rejected';
          },
        );
        const after = await box.bytes(path);
        if (outcome === 'rejected') expect(after).toEqual(bytes);
        else if (!splitsCrlf) expectOutsideKept(bytes, after, start, end);
      }),
      { numRuns: 25 },
    );
  }, 60_000);
});
