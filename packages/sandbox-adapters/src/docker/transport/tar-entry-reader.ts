/**
 * Reads the first real entry of a tar (POSIX ustar, with PAX `x`/`g` and GNU long-name `L`/`K`
 * records skipped) as bytes arrive, as `GET /containers/{id}/archive` sends it. A regular file's
 * bytes land in one buffer of exactly its size: either copied there from each pushed chunk, or
 * written there by the caller itself ({@link FirstTarEntryReader.directTarget}, which lets a socket
 * read straight into the result).
 * @module
 */
const block = 512;

/** The first entry of an archive that is not a PAX or long-name record. */
export type TarEntry =
  | { kind: 'file'; data: Buffer }
  | { kind: 'directory' }
  | { kind: 'symlink'; target: string }
  | { kind: 'other'; type: string }
  | { kind: 'none' };

/**
 * Push parser for the first entry of a tar: {@link push} bytes until {@link entry} is set, then
 * stop feeding it (the padding and the rest of the archive are never needed).
 */
export class FirstTarEntryReader {
  /** The entry, once known; a file's once all of its bytes have arrived. */
  entry: TarEntry | undefined;
  private readonly header = Buffer.alloc(block);
  private headerFill = 0;
  private skip = 0; // bytes of a skipped record's data (and padding) still to drop
  private data: Buffer | undefined;
  private filled = 0;

  /**
   * @param prepared a buffer to take a regular file's bytes when the file turns out to be exactly
   *   its size (a caller that knew the size beforehand may have touched its pages already);
   *   otherwise a new buffer of the file's size is allocated
   */
  constructor(private readonly prepared?: Buffer) {}

  /**
   * Where the next `≥ minBytes` bytes of the file's data may be written directly (a view of the
   * result buffer), or `undefined` when the reader expects headers or fewer bytes remain. Bytes
   * written there are reported with {@link wroteDirect}.
   */
  directTarget(minBytes: number): Buffer | undefined {
    if (this.entry !== undefined || this.data === undefined) return undefined;
    return this.data.length - this.filled >= minBytes ? this.data.subarray(this.filled) : undefined;
  }

  /** Counts `count` bytes written into the last {@link directTarget}. */
  wroteDirect(count: number): void {
    this.filled += count;
    if (this.data !== undefined && this.filled === this.data.length)
      this.entry = { kind: 'file', data: this.data };
  }

  /**
   * Parses `chunk` (not kept: its data bytes are copied). Bytes after the entry is known are ignored.
   * @throws RangeError for a malformed header
   */
  push(chunk: Buffer): void {
    let at = 0;
    while (at < chunk.length && this.entry === undefined) {
      if (this.data !== undefined) {
        const take = Math.min(chunk.length - at, this.data.length - this.filled);
        chunk.copy(this.data, this.filled, at, at + take);
        at += take;
        this.wroteDirect(take);
      } else if (this.skip > 0) {
        const take = Math.min(this.skip, chunk.length - at);
        this.skip -= take;
        at += take;
      } else {
        const take = Math.min(block - this.headerFill, chunk.length - at);
        chunk.copy(this.header, this.headerFill, at, at + take);
        this.headerFill += take;
        at += take;
        if (this.headerFill === block) {
          this.headerFill = 0;
          this.readHeader();
        }
      }
    }
  }

  /**
   * The entry once the archive has ended.
   * @throws RangeError when it ended inside the file's data
   */
  end(): TarEntry {
    if (this.entry !== undefined) return this.entry;
    if (this.data !== undefined)
      throw new RangeError(`the archive ended after ${this.filled} of ${this.data.length} bytes`);
    return { kind: 'none' };
  }

  private readHeader(): void {
    const header = this.header;
    if (header.every((byte) => byte === 0)) {
      this.entry = { kind: 'none' };
      return;
    }
    const size = octalField(header, 124, 12);
    const type = String.fromCharCode(header[156] ?? 0);
    if (type === 'x' || type === 'g' || type === 'L' || type === 'K')
      this.skip = Math.ceil(size / block) * block;
    else if (type === '5') this.entry = { kind: 'directory' };
    else if (type === '2') this.entry = { kind: 'symlink', target: cString(header, 157, 100) };
    else if (type !== '0' && type !== '\u0000') this.entry = { kind: 'other', type };
    else {
      this.data = this.prepared?.length === size ? this.prepared : Buffer.allocUnsafe(size);
      if (size === 0) this.entry = { kind: 'file', data: this.data };
    }
  }
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
