/**
 * A minimal tar (ustar) writer and reader, enough for `putArchive` of one file and `getArchive`
 * of one file. Names are sandkit's own short temp names, so no PAX/long-name records are written;
 * the reader skips PAX headers.
 * @module
 */

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

/** Builds an in-memory tar holding one regular file. */
export function tarOneFile(file: TarFile): Buffer {
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
  return Buffer.concat([
    header,
    Buffer.from(file.data.buffer, file.data.byteOffset, file.data.length),
    Buffer.alloc(padding + 2 * block),
  ]);
}

/** The contents of the first regular file in a tar, or `undefined` when it holds none. */
export function untarFirstFile(archive: Buffer): Buffer | undefined {
  let offset = 0;
  while (offset + block <= archive.length) {
    const header = archive.subarray(offset, offset + block);
    if (header.every((byte) => byte === 0)) return undefined;
    const size = Number.parseInt(
      header.subarray(124, 136).toString('latin1').replace(/\0.*$/s, '').trim() || '0',
      8,
    );
    const type = String.fromCharCode(header[156] ?? 0);
    const start = offset + block;
    if (type === '0' || type === '\u0000') return archive.subarray(start, start + size);
    offset = start + Math.ceil(size / block) * block;
  }
  return undefined;
}

function octal(header: Buffer, offset: number, length: number, value: number): void {
  header.write(`${value.toString(8).padStart(length - 1, '0')}\u0000`, offset, length, 'latin1');
}
