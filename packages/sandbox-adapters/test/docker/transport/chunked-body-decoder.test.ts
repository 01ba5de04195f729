import { describe, expect, it } from 'vitest';
import { ChunkedBodyDecoder } from '../../../src/docker/transport/chunked-body-decoder.js';

/** Decodes `body` fed in pieces of `size` bytes. */
function decode(body: string, size: number): { data: string; done: boolean } {
  const decoder = new ChunkedBodyDecoder();
  const parts: Buffer[] = [];
  const bytes = Buffer.from(body, 'latin1');
  for (let at = 0; at < bytes.length; at += size)
    decoder.push(bytes.subarray(at, at + size), (part) => parts.push(Buffer.from(part)));
  return { data: Buffer.concat(parts).toString('latin1'), done: decoder.done };
}

describe('ChunkedBodyDecoder', () => {
  describe('when the body is well formed', () => {
    it.each([1, 2, 3, 5, 64])('returns the data and ignores the trailers, fed %i bytes at a time', (size) => {
      const body = '5\r\nhello\r\na;name=value\r\n, chunked!\r\n0\r\nX-Trailer: 1\r\n\r\n';
      expect(decode(body, size)).toEqual({ data: 'hello, chunked!', done: true });
    });
  });
  describe('when the last chunk has not arrived', () => {
    it('returns the data so far and is not done', () => {
      expect(decode('3\r\nabc\r\n2\r\nd', 4)).toEqual({ data: 'abcd', done: false });
    });
  });
  describe('when a size line is not hexadecimal', () => {
    it('throws RangeError quoting the line', () => {
      expect(() => decode('zz\r\nabc\r\n', 64)).toThrow(/bad HTTP chunk size line: "zz\\r"/);
    });
  });
});
