import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pageCount, paginate } from '../src/paginate.js';

test('pageCount of an exact multiple', () => {
  assert.equal(pageCount(20, 10), 2);
});

test('pageCount rejects a zero page size', () => {
  assert.throws(() => pageCount(5, 0), RangeError);
});

test('paginate returns the first page', () => {
  assert.deepEqual(paginate([1, 2, 3, 4], 1, 2), [1, 2]);
});

test('paginate returns nothing for page 0', () => {
  assert.deepEqual(paginate([1, 2, 3], 0, 2), []);
});
