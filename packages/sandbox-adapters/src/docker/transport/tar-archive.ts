/**
 * A minimal tar (POSIX ustar) writer for the Engine API's archive PUT: the header of one file, the
 * caller's bytes as they are (no copy), and the padding. Names are sandkit's own
 * short temp names, so no PAX/long-name records are written. The reader of the archive
 * endpoint's tar is tar-entry-reader.ts.
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

/**
 * A tar archive holding one regular file, as its three parts: the 512-byte header, the data (a
 * view of the caller's buffer, not a copy) and the padding with the two end blocks.
 * @throws RangeError when the name is longer than 100 bytes
 */
export function tarOneFileParts(file: TarFile): [Buffer, Buffer, Buffer] {
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
  return [header, data, Buffer.alloc(padding + 2 * block)];
}

function octal(header: Buffer, offset: number, length: number, value: number): void {
  header.write(`${value.toString(8).padStart(length - 1, '0')}\u0000`, offset, length, 'latin1');
}
