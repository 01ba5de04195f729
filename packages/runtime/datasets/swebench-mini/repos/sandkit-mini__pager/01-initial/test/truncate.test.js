import assert from 'node:assert/strict';
import { test } from 'node:test';
import { truncate } from '../src/truncate.js';

test('truncate keeps short text', () => {
  assert.equal(truncate('abc', 5), 'abc');
});

test('truncate shortens long text with an ellipsis', () => {
  assert.equal(truncate('abcdefgh', 5), 'abcd…');
});
