/**
 * Connect protocol framing for server streams with JSON messages (`application/connect+json`):
 * each message is 1 flag byte, a 4-byte big-endian length and the JSON bytes. Flag 0x02 marks
 * the end-of-stream message, which carries `{}` or `{"error": {"code", "message"}}`.
 * Spec: https://connectrpc.com/docs/protocol/#streaming-request
 * @module
 */

/** Flag of the end-of-stream envelope. */
export const endStreamFlag = 0x02;

/** Frames one JSON message. */
export function encodeEnvelope(message: unknown, flags = 0): Buffer {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  const head = Buffer.alloc(5);
  head.writeUInt8(flags, 0);
  head.writeUInt32BE(body.length, 1);
  return Buffer.concat([head, body]);
}

/** Reads the JSON messages framed in a whole request body. */
export function decodeEnvelopes(body: Buffer): unknown[] {
  const messages: unknown[] = [];
  let offset = 0;
  while (offset + 5 <= body.length) {
    const length = body.readUInt32BE(offset + 1);
    const json = body.subarray(offset + 5, offset + 5 + length).toString('utf8');
    messages.push(json === '' ? {} : JSON.parse(json));
    offset += 5 + length;
  }
  return messages;
}
