import type { SandboxClient } from '@sandkit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReadFileTool } from '../../src/files/read-file.js';
import { createFileToolsSandbox, type FileToolsSandbox } from '../file-tools-sandbox.js';
import { toolError } from '../tool-error.js';

let box: FileToolsSandbox;
beforeAll(async () => {
  box = await createFileToolsSandbox();
});
afterAll(() => box.handle.destroy());

const tool = (maxOutputBytes?: number) =>
  createReadFileTool(box.handle.client, { root: box.root, ...(maxOutputBytes ? { maxOutputBytes } : {}) });
const read = (input: Record<string, unknown>, maxOutputBytes?: number) => tool(maxOutputBytes).call(input);
async function readText(input: Record<string, unknown>, maxOutputBytes?: number) {
  const result = await read(input, maxOutputBytes);
  if (result.kind !== 'text') throw new Error(`expected text, got ${result.kind}`);
  return result;
}
/** `count` lines `line 1`..`line N`, each ending with `\n`. */
const numbered = (count: number, from = 1) =>
  Array.from({ length: count }, (_, i) => `line ${from + i}\n`).join('');

describe('createReadFileTool', () => {
  describe('when reading a small text file', () => {
    it('returns numbered lines, the line counts and a revision', async () => {
      await box.put('a.txt', 'one\ntwo\nthree\n');
      const result = await readText({ path: 'a.txt' });
      expect(result.content).toBe('1\tone\n2\ttwo\n3\tthree');
      expect(result).toMatchObject({
        startLine: 1,
        endLine: 3,
        totalLines: 3,
        truncated: false,
        lineEnding: 'lf',
        size: 14,
      });
      expect(result.revision).toMatch(/^[0-9a-f]{16}$/);
      expect(result.nextOffset).toBeUndefined();
    });

    it('pages with offset and limit and says where to continue', async () => {
      await box.put('many.txt', numbered(10));
      const result = await readText({ path: 'many.txt', offset: 4, limit: 3 });
      expect(result.content).toBe('4\tline 4\n5\tline 5\n6\tline 6');
      expect(result).toMatchObject({
        startLine: 4,
        endLine: 6,
        totalLines: 10,
        nextOffset: 7,
        nextByteOffset: 42,
      });
      const next = await readText({
        path: 'many.txt',
        offset: result.nextOffset,
        byteOffset: result.nextByteOffset,
        limit: 2,
      });
      expect(next.content).toBe('7\tline 7\n8\tline 8');
    });

    it('returns no lines and totalLines 0 for an empty file', async () => {
      await box.put('empty.txt', '');
      const result = await readText({ path: 'empty.txt' });
      expect(result).toMatchObject({
        content: '',
        startLine: 1,
        endLine: 0,
        totalLines: 0,
        truncated: false,
        size: 0,
      });
    });

    it('omits line numbers when lineNumbers is false', async () => {
      await box.put('plain.txt', 'x\ny');
      const result = await readText({ path: 'plain.txt', lineNumbers: false });
      expect(result.content).toBe('x\ny');
      expect(result.totalLines).toBe(2);
    });

    it('caps an unbounded read at 2000 lines and marks it truncated', async () => {
      await box.put('long.txt', numbered(2500));
      const result = await readText({ path: 'long.txt' }, 1024 * 1024);
      expect(result).toMatchObject({ startLine: 1, endLine: 2000, truncated: true, nextOffset: 2001 });
    });
  });

  describe('when the file has CRLF line endings (B08 read side)', () => {
    it('B08: reports lineEnding crlf and shows the lines without \\r', async () => {
      await box.put('win.txt', 'a = 1\r\nb = 2\r\nc = 3\r\n');
      const result = await readText({ path: 'win.txt' });
      expect(result.lineEnding).toBe('crlf');
      expect(result.content).toBe('1\ta = 1\n2\tb = 2\n3\tc = 3');
    });

    it('reports mixed line endings instead of guessing', async () => {
      await box.put('mixed.txt', 'a\r\nb\nc\r\n');
      expect((await readText({ path: 'mixed.txt' })).lineEnding).toBe('mixed');
    });
  });

  describe('when a line is longer than 2000 characters', () => {
    it('B23: clips a 2,000,000-byte one-line file with a marker and a byte continuation', async () => {
      await box.put('dist/app.min.js', 'var a=1;'.repeat(250_000));
      const result = await readText({ path: 'dist/app.min.js', offset: 1, limit: 50 });
      expect(result.content).toContain(
        '[line 1 truncated: showed 2000 of 2000000 bytes; continue with byteOffset=2000]',
      );
      expect(Buffer.byteLength(result.content)).toBeLessThan(64 * 1024);
      expect(result).toMatchObject({ truncated: true, nextOffset: 1, nextByteOffset: 2000, endLine: 1 });
      const next = await readText({ path: 'dist/app.min.js', offset: 1, byteOffset: 2000, limit: 50 });
      expect(next.content.startsWith(`1\t${'var a=1;'.repeat(250)}`)).toBe(true);
      expect(next.nextByteOffset).toBe(4000);
    });

    it('B23: clips a long line of a small file and still shows the lines after it', async () => {
      await box.put('mixed-len.txt', `short\n${'x'.repeat(5000)}\nafter\n`);
      const result = await readText({ path: 'mixed-len.txt' });
      const lines = result.content.split('\n');
      expect(lines[1]).toBe(
        `2\t${'x'.repeat(2000)} [line 2 truncated: showed 2000 of 5000 bytes; continue with byteOffset=2006]`,
      );
      expect(lines[2]).toBe('3\tafter');
      expect(result.truncated).toBe(true);
    });
  });

  describe('when the byte cap falls inside a multi-byte character (B25 read side)', () => {
    it.each([
      ['✓ (3 bytes)', '✓', 3],
      ['😀 (4 bytes, a surrogate pair in JS)', '😀', 4],
    ])('B25: cuts %s on a character boundary and continues from there', async (_name, char, width) => {
      await box.put(`b25-${width}.txt`, Buffer.from(`${'a'.repeat(19)}${char.repeat(3000)}\n`, 'utf8'));
      const result = await readText({ path: `b25-${width}.txt` }, 1024);
      expect(result.content).not.toContain('\uFFFD');
      expect(result.content).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
      const next = result.nextByteOffset!;
      expect((next - 19) % width).toBe(0);
      expect(Buffer.byteLength(result.content)).toBeLessThanOrEqual(1024);
      const rest = await readText({ path: `b25-${width}.txt`, offset: 1, byteOffset: next }, 1024);
      expect(rest.content.startsWith(`1\t${char}`)).toBe(true);
      expect(rest.content).not.toContain('\uFFFD');
    });

    it('B25: keeps a big file window on character boundaries', async () => {
      const line = `${'é✓😀'.repeat(40)}\n`;
      await box.put('big-utf8.txt', Buffer.from(line.repeat(6000), 'utf8'));
      const result = await readText({ path: 'big-utf8.txt', offset: 100 }, 8192);
      expect(result.content).not.toContain('\uFFFD');
      expect(result.totalLines).toBeNull();
      const lines = result.content.split('\n');
      expect(lines.every((l, i) => l === `${100 + i}\t${line.slice(0, -1)}`)).toBe(true);
      expect(result.nextOffset).toBe(result.endLine + 1);
      expect(result.nextByteOffset).toBe(result.endLine * Buffer.byteLength(line));
    });
  });

  describe('when the file is not valid UTF-8 (B26 read side)', () => {
    it('B26: shows U+FFFD with a notice giving the first bad byte, and does not throw', async () => {
      await box.put('legacy.txt', 'caf\xe9 = 1\nname = "Jos\xe9"\n');
      const result = await readText({ path: 'legacy.txt' });
      expect(result.content).toBe('1\tcaf\uFFFD = 1\n2\tname = "Jos\uFFFD"');
      expect(result.notice).toMatch(/^not valid UTF-8 at byte 3; shown with replacement characters/);
    });
  });

  describe('when reading a large file', () => {
    it('cuts the window inside the sandbox: a far offset returns only that window', async () => {
      await box.put('large.txt', numbered(60_000));
      const result = await readText({ path: 'large.txt', offset: 50_000, limit: 5 });
      expect(result.content).toBe(
        [50_000, 50_001, 50_002, 50_003, 50_004].map((n) => `${n}\tline ${n}`).join('\n'),
      );
      expect(result.totalLines).toBeNull();
      expect(result.revision).toMatch(/^[0-9a-f]{16}$/);
      const offset = Buffer.byteLength(numbered(50_004));
      expect(result).toMatchObject({ nextOffset: 50_005, nextByteOffset: offset });
      const end = await readText({
        path: 'large.txt',
        offset: 59_999,
        byteOffset: Buffer.byteLength(numbered(59_998)),
      });
      expect(end).toMatchObject({
        content: '59999\tline 59999\n60000\tline 60000',
        totalLines: 60_000,
        truncated: false,
      });
    });

    it.each([
      [
        'without /proc fdinfo (awk scan)',
        (command: string) => command.replaceAll('/proc/self/fdinfo/0', '/nonexistent/fdinfo'),
      ],
      [
        'with a grep that leaves the file offset elsewhere (offset check fails, awk rescans)',
        (command: string) =>
          `grep() { if [ "$1" = -V ]; then echo GNU; return 0; fi; command grep "$@"; r=$?; dd bs=1 count=7 of=/dev/null 2>/dev/null; return $r; }\n${command}`,
      ],
    ])('finds the same far window %s', async (_name, rewrite) => {
      const real = box.handle.client;
      // A fake client only to inject a fault a real sandbox with GNU grep cannot produce.
      const faulty: SandboxClient = {
        ...real,
        exec: (command, options) => real.exec(rewrite(command), options),
      };
      const result = await createReadFileTool(faulty, { root: box.root }).call({
        path: 'large.txt',
        offset: 50_000,
        limit: 2,
      });
      expect(result).toMatchObject({
        kind: 'text',
        content: '50000\tline 50000\n50001\tline 50001',
        nextByteOffset: Buffer.byteLength(numbered(50_001)),
      });
    });

    it('counts the line number when only byteOffset is given', async () => {
      const result = await readText({
        path: 'large.txt',
        byteOffset: Buffer.byteLength(numbered(1000)),
        limit: 1,
      });
      expect(result.content).toBe('1001\tline 1001');
    });

    it('fails with the line count when offset is past the end', async () => {
      const error = await toolError(read({ path: 'large.txt', offset: 70_000 }));
      expect(error.message).toMatch(/offset 70000 is past the end of large.txt \(60000 lines/);
    });
  });

  describe('when the file is an image, a PDF or binary', () => {
    const png = Buffer.from(
      '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
      'hex',
    );

    it('returns a PNG as media, and toContent gives image content', async () => {
      await box.put('pic.png', png);
      const t = tool();
      const result = await t.call({ path: 'pic.png' });
      expect(result).toMatchObject({
        kind: 'media',
        mediaType: 'image/png',
        size: png.length,
        data: png.toString('base64'),
      });
      expect(t.toContent(result)[0]).toEqual({
        type: 'image',
        mediaType: 'image/png',
        data: png.toString('base64'),
      });
    });

    it('knows an image by its first bytes when the name has no extension', async () => {
      await box.put('noext', png);
      expect(await read({ path: 'noext' })).toMatchObject({ kind: 'media', mediaType: 'image/png' });
    });

    it('returns a PDF as a document', async () => {
      const pdf = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
      await box.put('doc.pdf', pdf);
      const t = tool();
      const result = await t.call({ path: 'doc.pdf' });
      expect(t.toContent(result)[0]).toMatchObject({
        type: 'document',
        mediaType: 'application/pdf',
        data: pdf.toString('base64'),
      });
    });

    it('describes a file with a NUL byte instead of dumping it', async () => {
      await box.put('blob.gz', Buffer.concat([Buffer.from([0x1f, 0x8b, 0x08, 0x00]), Buffer.alloc(100, 7)]));
      const result = await read({ path: 'blob.gz' });
      expect(result).toMatchObject({ kind: 'binary', size: 104, typeGuess: 'gzip data' });
    });

    it('recognises UTF-16 text by its BOM instead of dumping it', async () => {
      await box.put('utf16.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hi\n', 'utf16le')]));
      expect(await read({ path: 'utf16.txt' })).toMatchObject({
        kind: 'binary',
        typeGuess: expect.stringMatching(/^UTF-16LE text/),
      });
    });

    it('describes a large file with a NUL byte as binary at any offset, without scanning it', async () => {
      await box.put(
        'large.bin',
        Buffer.concat([Buffer.from('\x7fELF'), Buffer.alloc(400_000, 0), Buffer.from('\n'.repeat(10))]),
      );
      expect(await read({ path: 'large.bin' })).toMatchObject({
        kind: 'binary',
        size: 400_014,
        typeGuess: 'ELF executable',
      });
      expect(await read({ path: 'large.bin', offset: 5 })).toMatchObject({
        kind: 'binary',
        typeGuess: 'ELF executable',
      });
    });

    it('returns an empty base64 read for an empty file', async () => {
      await box.put('empty.bin', '');
      expect(await read({ path: 'empty.bin', encoding: 'base64' })).toMatchObject({
        kind: 'bytes',
        content: '',
        byteLength: 0,
        size: 0,
        truncated: false,
      });
    });

    it('pages through raw bytes with encoding base64', async () => {
      const data = Buffer.from(Array.from({ length: 3000 }, (_, i) => i % 256));
      await box.put('raw.bin', data);
      const first = await read({ path: 'raw.bin', encoding: 'base64' }, 2048);
      if (first.kind !== 'bytes') throw new Error(first.kind);
      const second = await read(
        { path: 'raw.bin', encoding: 'base64', byteOffset: first.nextByteOffset },
        2048,
      );
      if (second.kind !== 'bytes') throw new Error(second.kind);
      expect(
        Buffer.concat([Buffer.from(first.content, 'base64'), Buffer.from(second.content, 'base64')]),
      ).toEqual(data.subarray(0, first.byteLength + second.byteLength));
    });
  });

  describe('when the path is wrong', () => {
    it('throws ToolError not_found that points to list_files', async () => {
      const error = await toolError(read({ path: 'nope.txt' }));
      expect(error.code).toBe('not_found');
      expect(error.message).toMatch(/list_files/);
    });

    it('throws ToolError is_directory for a directory', async () => {
      await box.put('dir/x.txt', 'x');
      expect((await toolError(read({ path: 'dir' }))).code).toBe('is_directory');
    });

    it('throws ToolError outside_root for ../', async () => {
      expect((await toolError(read({ path: '../etc/passwd' }))).code).toBe('outside_root');
    });
  });

  describe('toContent', () => {
    it('keeps what the model sees within maxOutputBytes and says how to continue', async () => {
      await box.put('wide.txt', `${'y'.repeat(1500)}\n`.repeat(200));
      const t = tool(4096);
      const result = await t.call({ path: 'wide.txt' });
      const [part] = t.toContent(result);
      if (part?.type !== 'text') throw new Error('expected text');
      expect(Buffer.byteLength(part.text)).toBeLessThanOrEqual(4096);
      expect(part.text).toMatch(/more: call read_file with offset=\d+ byteOffset=\d+/);
    });
  });
});
