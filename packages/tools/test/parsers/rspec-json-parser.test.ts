import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTestOutput } from '../../src/parsers/parse-test-output.js';

// Issue 26 section 4: RSpec's --format json document (real fixtures, generate-junit-xml.sh).
const fixture = (name: string): string =>
  readFileSync(join(import.meta.dirname, '../fixtures/runners', name), 'utf8');

describe('parseTestOutput on rspec --format json', () => {
  it('is detected past what the specs print and names examples by their full description', () => {
    const parsed = parseTestOutput(fixture('rspec-json.txt'));
    expect(parsed.framework).toBe('rspec-json');
    expect(parsed).toMatchObject({ passed: 2, failed: 2, skipped: 1, total: 5 });
    expect(Object.fromEntries(parsed.tests.map((test) => [test.name, test.status]))).toEqual({
      'Calc adds': 'passed',
      'Calc compares': 'failed',
      'Calc errors': 'failed',
      'Calc is pending': 'skipped',
      'Calc group first': 'passed',
    });
    expect(parsed.failures).toContainEqual({ name: 'Calc errors', message: 'boom' });
  });

  it('counts an error outside of examples as failed and names it by the file that did not load', () => {
    const parsed = parseTestOutput(fixture('rspec-json-load-error.txt'));
    expect(parsed).toMatchObject({ framework: 'rspec-json', passed: 0, failed: 1, skipped: 0, total: 0 });
    expect(parsed.tests).toEqual([{ name: './spec/broken_spec.rb', status: 'error' }]);
    expect(parsed.failures[0]?.message).toMatch(/uninitialized constant Broken/);
  });

  it('never reports a cut document as passing: an error named rspec-json, no counts, no passes', () => {
    const text = fixture('rspec-json.txt');
    for (const fraction of [0.3, 0.6, 0.95]) {
      const start = text.indexOf('{"version"');
      const parsed = parseTestOutput(text.slice(0, start + Math.floor((text.length - start) * fraction)));
      expect(parsed.framework).toBe('rspec-json');
      expect(parsed.total).toBeUndefined();
      expect(parsed.tests).toEqual([{ name: 'rspec-json', status: 'error' }]);
    }
  });
});
