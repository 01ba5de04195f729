/**
 * A minimal tar (POSIX ustar) writer and reader for the Engine API's archive endpoints, both as
 * streams: `putArchive` of one file sends the header, the caller's bytes as they are (no copy),
 * and the padding; `getArchive` of one file is parsed as it arrives into one buffer the size of
 * the file. Names are sandkit's own short temp names, so no PAX/long-name records are written;
 * the reader skips PAX (`x`, `g`) and GNU long-name (`L`, `K`) records.
 * @module
 */
import { Readable } from 'node:stream';

const block = 512;

/** One regular file to put into an archive. */
export interface TarFile {
  /** Name inside the archive (≤ 100 bytes). */
  name: string;
  data: Uint8Array;
  /** Permission bits, for example 0o644. */
  mode: number;
  uid: number;
  gid: number;
}

/**
 * A tar stream holding one regular file: header, the data (the caller's buffer, not copied),
 * padding and the two end blocks.
 * @throws RangeError when the name is longer than 100 bytes
 */
export function tarOneFileStream(file: TarFile): Readable {
  const header = Buffer.alloc(block);
  const name = Buffer.from(file.name, 'utf8');
  if (name.length > 100) throw new RangeError(`tar entry name longer than 100 bytes: ${file.name}`);
  name.copy(header, 0);
  octal(header, 100, 8, file.mode & 0o7777);
  octal(header, 108, 8, file.uid);
  octal(header, 116, 8, file.gid);
  octal(header, 124, 12, file.data.length);
  octal(header, 136, 12, Math.floor(Date.now() / 1000));
  header.fill(0x20, 148, 156); // checksum field counts as spaces while summing
  header.write('0', 156, 'latin1'); // regular file
  header.write('ustar\u000000', 257, 'latin1');
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, '0')}\u0000 `, 148, 'latin1');
  const padding = (block - (file.data.length % block)) % block;
  const data = Buffer.from(file.data.buffer, file.data.byteOffset, file.data.length);
  return Readable.from([header, data, Buffer.alloc(padding + 2 * block)], { objectMode: false });
}

/** The first entry of an archive that is not a PAX or long-name record. */
export type TarEntry =
  | { kind: 'file'; data: Buffer }
  | { kind: 'directory' }
  | { kind: 'symlink'; target: string }
  | { kind: 'other'; type: string }
  | { kind: 'none' };

/**
 * Reads `stream` (a tar) up to the end of its first real entry and stops reading it. A regular
 * file's bytes are copied once, into a buffer of exactly its size.
 * @throws the stream's own error; RangeError for a malformed header
 */
export async function readFirstTarEntry(stream: Readable): Promise<TarEntry> {
  let pending = Buffer.alloc(0);
  let header: Buffer | undefined;
  let skip = 0; // bytes of a skipped record's data (and padding) still to drop
  let data: Buffer | undefined;
  let filled = 0;
  try {
    for await (const part of stream as AsyncIterable<Buffer>) {
      let chunk = pending.length > 0 ? Buffer.concat([pending, part]) : part;
      pending = Buffer.alloc(0);
      while (chunk.length > 0) {
        if (data !== undefined) {
          const take = Math.min(chunk.length, data.length - filled);
          chunk.copy(data, filled, 0, take);
          filled += take;
          if (filled === data.length) return { kind: 'file', data };
          chunk = chunk.subarray(take);
          continue;
        }
        if (skip > 0) {
          const take = Math.min(skip, chunk.length);
          skip -= take;
          chunk = chunk.subarray(take);
          continue;
        }
        if (chunk.length < block) {
          pending = Buffer.from(chunk);
          break;
        }
        header = chunk.subarray(0, block);
        chunk = chunk.subarray(block);
        if (header.every((byte) => byte === 0)) return { kind: 'none' };
        const size = octalField(header, 124, 12);
        const type = String.fromCharCode(header[156] ?? 0);
        if (type === 'x' || type === 'g' || type === 'L' || type === 'K') {
          skip = Math.ceil(size / block) * block;
          continue;
        }
        if (type === '5') return { kind: 'directory' };
        if (type === '2') return { kind: 'symlink', target: cString(header, 157, 100) };
        if (type !== '0' && type !== '\u0000') return { kind: 'other', type };
        data = Buffer.allocUnsafe(size);
        if (size === 0) return { kind: 'file', data };
      }
    }
  } finally {
    stream.destroy();
  }
  if (data !== undefined) throw new RangeError(`the archive ended after ${filled} of ${data.length} bytes`);
  return { kind: 'none' };
}

function octal(header: Buffer, offset: number, length: number, value: number): void {
  header.write(`${value.toString(8).padStart(length - 1, '0')}\u0000`, offset, length, 'latin1');
}

function octalField(header: Buffer, offset: number, length: number): number {
  const field = header.subarray(offset, offset + length);
  if (((field[0] ?? 0) & 0x80) !== 0) {
    // GNU base-256 for sizes ≥ 8 GiB.
    let value = 0;
    for (let index = 1; index < field.length; index++) value = value * 256 + (field[index] ?? 0);
    return value;
  }
  const text = cString(header, offset, length).trim();
  const value = text === '' ? 0 : Number.parseInt(text, 8);
  if (!Number.isSafeInteger(value)) throw new RangeError(`bad tar header field: ${JSON.stringify(text)}`);
  return value;
}

function cString(header: Buffer, offset: number, length: number): string {
  const field = header.subarray(offset, offset + length);
  const end = field.indexOf(0);
  return field.subarray(0, end === -1 ? field.length : end).toString('utf8');
}
