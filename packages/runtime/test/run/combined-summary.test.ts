import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/eval/report/run-report.js';
import { formatCombinedSummary } from '../../src/run/combined-summary.js';
import type { RunRecord } from '../../src/run/run-record.js';

const record = (cost: number | null): RunRecord =>
  ({ options: { model: 'm' }, instances: 4, finished: 4, steps: 10, cost_usd: cost }) as unknown as RunRecord;
const report = (resolved: number): RunReport => ({ resolved_instances: resolved }) as unknown as RunReport;

describe('formatCombinedSummary', () => {
  it('gives the resolved rate of all chosen instances, the cost per resolved instance and the steps per instance', () => {
    expect(formatCombinedSummary(record(2), report(3))).toContain(
      '| m | 4 | 3 | 75.0% | $2.0000 | $0.6667 | 2.5 |',
    );
  });

  it('says n/a for the cost per resolved instance without a price or without a resolved instance', () => {
    expect(formatCombinedSummary(record(null), report(3))).toContain('n/a (no price)');
    expect(formatCombinedSummary(record(1), report(0))).toContain('n/a (none resolved)');
  });
});
