/**
 * Decoder of an HTTP/1.1 chunked body (RFC 9112 §7.1): `<hex size>[;ext]\r\n<data>\r\n` … `0\r\n`,
 * then trailers, which are ignored. Used by archive-request.ts when an engine (or a proxy in front
 * of it) answers its HTTP/1.0 request with chunked framing anyway.
 * @module
 */

/** Push decoder: feed it the body as it arrives, get the data back in pieces. */
export class ChunkedBodyDecoder {
  private line = ''; // the size line being read
  private remaining = 0; // data bytes of the current chunk still to come
  private crlf = 0; // bytes of the CRLF after a chunk's data still to drop
  /** `true` once the last (size 0) chunk was seen. */
  done = false;

  /**
   * Decodes `bytes`, calling `emit` with views of it (valid only during the call).
   * @throws RangeError for a malformed size line
   */
  push(bytes: Buffer, emit: (data: Buffer) => void): void {
    let at = 0;
    while (at < bytes.length && !this.done) {
      if (this.remaining > 0) {
        const take = Math.min(this.remaining, bytes.length - at);
        emit(bytes.subarray(at, at + take));
        this.remaining -= take;
        at += take;
        if (this.remaining === 0) this.crlf = 2;
      } else if (this.crlf > 0) {
        const take = Math.min(this.crlf, bytes.length - at);
        this.crlf -= take;
        at += take;
      } else {
        const newline = bytes.indexOf(0x0a, at);
        const end = newline === -1 ? bytes.length : newline;
        this.line += bytes.toString('latin1', at, end);
        at = end;
        if (this.line.length > 1024) throw new RangeError('an HTTP chunk size line is over 1 KiB');
        if (newline === -1) continue;
        at += 1;
        const size = /^([0-9a-fA-F]+)[ \t]*(;.*)?\r?$/.exec(this.line);
        if (size === null)
          throw new RangeError(`bad HTTP chunk size line: ${JSON.stringify(this.line.slice(0, 40))}`);
        this.line = '';
        this.remaining = Number.parseInt(size[1] ?? '', 16);
        if (this.remaining === 0) this.done = true;
      }
    }
  }
}
