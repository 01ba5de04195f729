/**
 * The last bytes of a stream, kept while it flows (bounded memory), and cut so that the text starts
 * on a whole UTF-8 character.
 * @module
 */

/** Keeps the last `limitBytes` bytes of everything pushed into it. */
export class TailBuffer {
  private chunks: Uint8Array[] = [];
  private size = 0;
  constructor(private readonly limitBytes: number) {}

  push(chunk: Uint8Array): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.chunks.length > 1 && this.size - (this.chunks[0]?.length ?? 0) >= this.limitBytes) {
      this.size -= this.chunks.shift()?.length ?? 0;
    }
  }

  /** The kept tail as text, starting on a character boundary. */
  text(): string {
    return tailText(Buffer.concat(this.chunks), this.limitBytes);
  }
}

/** The last `limitBytes` of `bytes` as text, skipping the continuation bytes of a cut character. */
export function tailText(bytes: Uint8Array, limitBytes: number): string {
  let start = Math.max(0, bytes.length - limitBytes);
  for (let step = 0; step < 3 && start < bytes.length && ((bytes[start] ?? 0) & 0xc0) === 0x80; step++)
    start++;
  return new TextDecoder().decode(bytes.subarray(start));
}
