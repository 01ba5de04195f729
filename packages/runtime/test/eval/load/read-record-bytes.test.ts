import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readRecordBytes } from '../../../src/eval/load/read-record-bytes.js';
import { readRecords } from '../../../src/eval/load/read-records.js';

/** What the dataset loader read before: the file as UTF-8, its byte order mark dropped, then readRecords. */
const asText = (bytes: Buffer) => {
  const text = bytes.toString('utf8');
  return readRecords(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, 'd.jsonl');
};

describe('readRecordBytes', () => {
  it.each([
    ['JSON Lines', '{"instance_id":"a__b-1"}\n\n{"instance_id":"a__b-2","x":"ü ✓"}\n'],
    ['a line that is not JSON', '{"instance_id":"a__b-1"}\n{"instance_id":\n  \n{}'],
    ['a byte order mark', '\ufeff{"instance_id":"a__b-1"}\n'],
    ['CRLF line ends', '{"a":1}\r\n{"b":2}\r\n'],
    ['a JSON array after white space', ' \n\t[{"instance_id":"a__b-1"},\n{"instance_id":"a__b-2"}]'],
    ['a broken JSON array', '[{"instance_id":"a__b-1"},\n{"instance_id"}]'],
    ['Unicode white space before an array', '\u00a0\u2028[{"a":1}]'],
    ['nothing', ''],
  ])('reads %s as readRecords reads its text', (_, text) => {
    const bytes = Buffer.from(text);
    expect(readRecordBytes(bytes, 'd.jsonl')).toEqual(asText(bytes));
  });

  it('reads invalid UTF-8 as readRecords reads its decoded text', () => {
    const bytes = Buffer.concat([
      Buffer.from('{"a":"'),
      Buffer.from([0xe2, 0x9c]),
      Buffer.from('"}\n{"b":1}\n'),
    ]);
    expect(readRecordBytes(bytes, 'd.jsonl')).toEqual(asText(bytes));
  });

  it('reads any bytes as readRecords reads their text', () => {
    const piece = fc.oneof(
      fc.constantFrom(
        '{"instance_id":"x__y-1","v":[1,2]}',
        '\n',
        '\r\n',
        ' ',
        '[',
        ']',
        ',',
        '\ufeff',
        '"ü"',
        '{',
      ),
      fc.string({ unit: 'grapheme', maxLength: 8 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 20 }), fc.uint8Array({ maxLength: 4 }), (pieces, junk) => {
        const bytes = Buffer.concat([Buffer.from(pieces.join('')), Buffer.from(junk)]);
        expect(readRecordBytes(bytes, 'd.jsonl')).toEqual(asText(bytes));
      }),
    );
  });
});
