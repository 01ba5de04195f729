/**
 * The one summary of `sandkit run --eval`: the agent's run (exit statuses, steps, cost) joined with
 * the grading of its predictions (resolved rate), as cost per resolved instance and steps per instance.
 * @module
 */
import type { RunReport } from '../eval/report/run-report.js';
import type { RunRecord } from './run-record.js';

/** Markdown: resolved rate, cost per resolved instance, steps per instance. */
export function formatCombinedSummary(record: RunRecord, report: RunReport): string {
  const resolved = report.resolved_instances;
  const total = record.instances;
  const pct = total === 0 ? 0 : (100 * resolved) / total;
  const costPerResolved =
    record.cost_usd === null
      ? 'n/a (no price)'
      : resolved === 0
        ? 'n/a (none resolved)'
        : `$${(record.cost_usd / resolved).toFixed(4)}`;
  const stepsPer = record.finished === 0 ? 'n/a' : (record.steps / record.finished).toFixed(1);
  return [
    '# sandkit run --eval',
    '',
    '| model | instances | resolved | resolved rate | cost | cost per resolved | steps per instance |',
    '|---|---:|---:|---:|---:|---:|---:|',
    `| ${record.options.model} | ${total} | ${resolved} | ${pct.toFixed(1)}% | ${record.cost_usd === null ? 'n/a' : `$${record.cost_usd.toFixed(4)}`} | ${costPerResolved} | ${stepsPer} |`,
    '',
  ].join('\n');
}
