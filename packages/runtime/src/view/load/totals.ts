/**
 * The run's totals from its instances: counts by status, the resolved rate with and without
 * infrastructure errors (SWE-bench 5.0 labels those, issue #586), and for agent runs the exit
 * statuses, cost, tokens and steps.
 * @module
 */
import type { ViewInstance, ViewTotals } from '../model/view-data.js';

const sum = (values: Array<number | null>): number | null =>
  values.some((value) => value !== null) ? values.reduce<number>((a, b) => a + (b ?? 0), 0) : null;

/**
 * @param graded whether the instances carry verdicts (an agent run without `--eval` has none:
 *   its rates are `null`)
 */
export function computeTotals(
  instances: readonly ViewInstance[],
  graded: boolean,
  agent: boolean,
): ViewTotals {
  const byStatus: Record<string, number> = {};
  const byExitStatus: Record<string, number> = {};
  for (const instance of instances) {
    byStatus[instance.status] = (byStatus[instance.status] ?? 0) + 1;
    if (instance.exitStatus !== null)
      byExitStatus[instance.exitStatus] = (byExitStatus[instance.exitStatus] ?? 0) + 1;
  }
  const resolved = byStatus.resolved ?? 0;
  const infraErrors = instances.filter((instance) => instance.infraError).length;
  const n = instances.length;
  return {
    instances: n,
    byStatus,
    resolved,
    resolvedRate: graded && n > 0 ? resolved / n : null,
    resolvedRateWithoutInfra: graded && n - infraErrors > 0 ? resolved / (n - infraErrors) : null,
    infraErrors,
    byExitStatus: agent ? byExitStatus : null,
    costUsd: agent ? sum(instances.map((i) => i.costUsd)) : null,
    tokens: agent ? sum(instances.map((i) => i.tokens)) : null,
    steps: agent ? sum(instances.map((i) => i.steps)) : null,
  };
}
