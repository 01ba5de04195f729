import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stripAnsiCodes } from '../../src/parsers/output-lines.js';
import { parseTestOutput } from '../../src/parsers/parse-test-output.js';
import type { ParsedTestOutput } from '../../src/parsers/test-output-types.js';
import { faultInjectionTable } from './fault-injection-table.js';

// Issue 11, item 4: every parser is fed its real fixtures damaged the ways logs get damaged
// (two workers' lines interleaved, then lines dropped, a line duplicated, a line cut mid-line).
// The parse must never report more passes than the intact log holds, and never failed = 0 while
// the runner's own "something failed" summary line is still there.

const fixture = (name: string): string =>
  readFileSync(join(import.meta.dirname, '../fixtures/runners', name), 'utf8');

/** Passes a parse reports: its summary count, or the passed tests it lists when it has none. */
const passesOf = (parsed: ParsedTestOutput): number =>
  parsed.passed ?? parsed.tests.filter((test) => test.status === 'passed').length;

type Damage =
  | { kind: 'drop'; at: number; count: number }
  | { kind: 'duplicate'; at: number }
  | { kind: 'cut'; at: number; fraction: number; rest: 'lost' | 'own line' };

const damage: fc.Arbitrary<Damage> = fc.oneof(
  fc.record({ kind: fc.constant('drop' as const), at: fc.nat(), count: fc.integer({ min: 1, max: 8 }) }),
  fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('cut' as const),
    at: fc.nat(),
    fraction: fc.double({ min: 0, max: 1, noNaN: true }),
    rest: fc.constantFrom('lost' as const, 'own line' as const),
  }),
);

/** Two workers' streams: which worker prints each line, and in which order their lines reach the log. */
const interleaving = fc.option(
  fc.record({
    owner: fc.array(fc.boolean(), { minLength: 1, maxLength: 64 }),
    turns: fc.array(fc.boolean(), { minLength: 1, maxLength: 64 }),
  }),
  {
    nil: undefined,
  },
);

/** The workers' lines merged into one stream first, then that stream damaged in transport. */
function damaged(
  lines: readonly string[],
  damages: readonly Damage[],
  interleave: { owner: boolean[]; turns: boolean[] } | undefined,
): string[] {
  const out = interleave === undefined ? [...lines] : interleaved(lines, interleave);
  for (const change of damages) {
    if (out.length === 0) break;
    const at = change.at % out.length;
    if (change.kind === 'drop') out.splice(at, change.count);
    else if (change.kind === 'duplicate') out.splice(at, 0, out[at] as string);
    else {
      const line = out[at] as string;
      const cut = Math.floor(line.length * change.fraction);
      out.splice(
        at,
        1,
        ...(change.rest === 'lost' ? [line.slice(0, cut)] : [line.slice(0, cut), line.slice(cut)]),
      );
    }
  }
  return out;
}

/** Each line is printed by one of two workers (`owner`); the log takes their lines in `turns`. */
function interleaved(lines: readonly string[], interleave: { owner: boolean[]; turns: boolean[] }): string[] {
  const workers: [string[], string[]] = [[], []];
  lines.forEach((line, index) => {
    workers[interleave.owner[index % interleave.owner.length] ? 1 : 0].push(line);
  });
  const merged: string[] = [];
  for (let turn = 0; workers[0].length + workers[1].length > 0; turn++) {
    const pick = interleave.turns[turn % interleave.turns.length] ? 1 : 0;
    const from = workers[pick].length > 0 ? workers[pick] : workers[1 - pick];
    merged.push(from?.shift() as string);
  }
  return merged;
}

describe('parser fault injection (issue 11)', () => {
  it('every fixture of the table, intact, gives its passes and, when its summary says so, a failure', () => {
    for (const row of faultInjectionTable) {
      const text = fixture(row.fixture);
      const parsed = parseTestOutput(text);
      expect(parsed.framework, row.fixture).toBe(row.framework);
      expect(passesOf(parsed), row.fixture).toBe(row.passes);
      if (row.saysFailed === undefined) continue;
      expect(
        text.split('\n').some((line) => row.saysFailed?.test(stripAnsiCodes(line))),
        `${row.fixture}: its failing summary line`,
      ).toBe(true);
      expect(parsed.failed, row.fixture).not.toBe(0);
      expect(parsed.failures.length, row.fixture).toBeGreaterThan(0);
    }
  });

  it('damaged copies of every fixture never report more passes, nor failed = 0 while the failing summary survives', () => {
    const rows = fc.constantFrom(
      ...faultInjectionTable.map((row) => ({ row, lines: fixture(row.fixture).split('\n') })),
    );
    fc.assert(
      fc.property(
        rows,
        fc.array(damage, { maxLength: 6 }),
        interleaving,
        ({ row, lines }, damages, interleave) => {
          const log = damaged(lines, damages, interleave);
          const parsed = parseTestOutput(log.join('\n'), { framework: row.framework });
          expect(passesOf(parsed), row.fixture).toBeLessThanOrEqual(row.passesPrinted ?? row.passes);
          const saysFailed = row.saysFailed;
          if (saysFailed !== undefined && log.some((line) => saysFailed.test(stripAnsiCodes(line))))
            expect(parsed.failed, row.fixture).not.toBe(0);
        },
      ),
      { numRuns: 50 * faultInjectionTable.length },
    );
  });
});
