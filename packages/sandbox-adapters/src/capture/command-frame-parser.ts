/**
 * Splits one output stream of a framed command into the command's own bytes and sandkit's frames.
 *
 * The in-sandbox wrapper (capture-script.ts) writes frames as `<nonce><type><text>\n`: `P<pid>` before the command
 * starts (stdout), and `E…` once it has ended (on both streams). The nonce is random per channel
 * and starts with a control byte, so a command cannot forge a frame by accident. Bytes are passed
 * on as they arrive; only a tail that could be the start of a nonce is held back.
 * @module
 */

/** Receives what {@link CommandFrameParser} finds. */
export interface FrameHandlers {
  /** Bytes the command wrote. */
  data(chunk: Buffer): void;
  /** A frame: its type letter and the rest of its line. */
  frame(type: string, text: string): void;
}

/** Parses one stream (stdout or stderr) of one command. */
export class CommandFrameParser {
  private held: Buffer | undefined;
  /** `true` once the `E` frame was seen; later bytes are not the command's. */
  ended = false;

  constructor(
    private readonly nonce: Buffer,
    private readonly handlers: FrameHandlers,
  ) {}

  /** Feeds a chunk; returns the bytes that followed the `E` frame (empty when none). */
  push(chunk: Buffer): Buffer {
    let buffer = this.held === undefined ? chunk : Buffer.concat([this.held, chunk]);
    this.held = undefined;
    while (buffer.length > 0 && !this.ended) {
      const at = buffer.indexOf(this.nonce);
      if (at === -1) {
        const keep = this.partialNonceSuffix(buffer);
        if (buffer.length > keep) this.handlers.data(buffer.subarray(0, buffer.length - keep));
        if (keep > 0) this.held = Buffer.from(buffer.subarray(buffer.length - keep));
        return Buffer.alloc(0);
      }
      if (at > 0) this.handlers.data(buffer.subarray(0, at));
      const newline = buffer.indexOf(10, at + this.nonce.length);
      if (newline === -1) {
        this.held = Buffer.from(buffer.subarray(at));
        return Buffer.alloc(0);
      }
      const text = buffer.subarray(at + this.nonce.length, newline).toString('utf8');
      if (text[0] === 'E') this.ended = true;
      this.handlers.frame(text.slice(0, 1), text.slice(1));
      buffer = buffer.subarray(newline + 1);
    }
    return buffer;
  }

  /** Bytes held back when the stream ends without an `E` frame (a cut-off nonce prefix is data). */
  flush(): void {
    if (this.held !== undefined && !this.ended) this.handlers.data(this.held);
    this.held = undefined;
  }

  /** Length of the longest suffix of `buffer` that is a proper prefix of the nonce. */
  private partialNonceSuffix(buffer: Buffer): number {
    const first = this.nonce[0] as number;
    let from = buffer.indexOf(first, Math.max(0, buffer.length - this.nonce.length + 1));
    while (from !== -1) {
      const tail = buffer.subarray(from);
      if (this.nonce.subarray(0, tail.length).equals(tail)) return tail.length;
      from = buffer.indexOf(first, from + 1);
    }
    return 0;
  }
}
