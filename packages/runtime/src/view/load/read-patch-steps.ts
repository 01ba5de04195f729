/**
 * The patch chain of one instance as its `eval.log` recorded it: the `model patch:` step's output,
 * split at the chain's `::sandkit-fallback <step>` markers, the step that applied the patch named
 * by `::sandkit-applied-with <step>` (both printed by `patchStepCommand`).
 * @module
 */
import { appliedMarker, fallbackMarker } from '../../eval/instance/patch-step.js';
import type { ViewPatchStep } from '../model/view-data.js';

const stepLine = /^\[[\d.]+s\] model patch: exit /;

/**
 * The steps tried, in order; `[]` when the log has no model patch step (an empty patch, an error
 * before it, a `sandkit grade` log).
 * @param evalLog the text of `eval.log`
 */
export function readPatchSteps(evalLog: string): ViewPatchStep[] {
  const lines = evalLog.split('\n');
  const start = lines.findIndex((line) => stepLine.test(line));
  if (start === -1) return [];
  const output: string[] = [];
  for (let i = start + 1; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line === '  output:') continue;
    if (!line.startsWith('    ')) break;
    output.push(line.slice(4));
  }
  const steps: ViewPatchStep[] = [{ method: 'git apply', applied: false, output: '' }];
  const body: string[][] = [[]];
  for (const line of output) {
    const current = steps[steps.length - 1] as ViewPatchStep;
    if (line.startsWith(fallbackMarker)) {
      steps.push({ method: line.slice(fallbackMarker.length).trim(), applied: false, output: '' });
      body.push([]);
    } else if (line.startsWith(appliedMarker)) current.applied = true;
    else body[body.length - 1]?.push(line);
  }
  return steps.map((step, i) => ({ ...step, output: (body[i] ?? []).join('\n').trimEnd() }));
}
