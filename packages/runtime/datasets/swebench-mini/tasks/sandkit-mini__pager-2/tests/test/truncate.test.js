import assert from 'node:assert/strict';
import { test } from 'node:test';
import { truncate } from '../src/truncate.js';

test('truncate keeps short text', () => {
  assert.equal(truncate('abc', 5), 'abc');
});

test('truncate shortens long text with an ellipsis', () => {
  assert.equal(truncate('abcdefgh', 5), 'abcd…');
});

test('truncate never splits an emoji', () => {
  assert.equal(truncate('ab😀cdef', 4), 'ab😀…');
});

test('truncate keeps text of exactly max characters', () => {
  assert.equal(truncate('abcde', 5), 'abcde');
  assert.equal(truncate('ab😀de', 5), 'ab😀de');
});
