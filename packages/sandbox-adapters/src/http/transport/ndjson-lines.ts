/**
 * Splits a streamed response body into its NDJSON lines, each parsed as JSON.
 * Hand-written (30 lines) rather than a library: the protocol's framing is `\n`-terminated JSON.
 * A line's bytes are kept as the chunks they came in and decoded once when its `\n` arrives, so
 * a result line of several MiB costs its own size, not a copy per chunk.
 * @module
 */

const newline = 0x0a;

/** Yields each line of `body` parsed as JSON; a last line without `\n` is yielded too. */
export async function* ndjsonLines(body: ReadableStream<Uint8Array>): AsyncGenerator<unknown> {
  const decoder = new TextDecoder();
  let parts: Uint8Array[] = [];
  for await (const chunk of body) {
    let start = 0;
    for (let end = chunk.indexOf(newline); end !== -1; end = chunk.indexOf(newline, start)) {
      parts.push(chunk.subarray(start, end));
      start = end + 1;
      const line = decoder.decode(Buffer.concat(parts));
      parts = [];
      if (line !== '') yield JSON.parse(line);
    }
    if (start < chunk.length) parts.push(chunk.subarray(start));
  }
  const last = decoder.decode(Buffer.concat(parts));
  if (last.trim() !== '') yield JSON.parse(last);
}
