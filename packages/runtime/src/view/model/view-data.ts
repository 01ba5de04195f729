/**
 * The data a `sandkit view` report carries: what the Node side reads from an output directory
 * (`load/`) and the browser side renders (`client/`). Plain JSON, embedded once in the HTML file.
 * Type-only for the client: nothing here runs in the browser.
 * @module
 */

/** The format tag of {@link ViewData}; a change to its meaning gets a new number. */
export const viewDataFormat = 'sandkit-view-1';

/** Which command wrote the directory: `sandkit eval`, `sandkit grade` or `sandkit run`. */
export type ViewRunKind = 'eval' | 'grade' | 'run';

/** How one listed test ended in the log. `missing`: named in the dataset, absent from the log. */
export type ViewTestStatus = 'passed' | 'failed' | 'missing';

/** One FAIL_TO_PASS or PASS_TO_PASS test of an instance. */
export interface ViewTest {
  list: 'FAIL_TO_PASS' | 'PASS_TO_PASS';
  name: string;
  status: ViewTestStatus;
  /** 1-based line of the whole log that decided it (see `load/deciding-lines.ts`); `null` when none was found. */
  line: number | null;
}

/** A stretch of the log, its lines as they were (no terminal colour codes). */
export interface ViewLogWindow {
  /** 1-based number of its first line in the whole log. */
  startLine: number;
  lines: string[];
}

/** The test output of an instance, cut to windows around the deciding lines. */
export interface ViewLog {
  /** Lines in the whole log. */
  totalLines: number;
  /** Bytes of the whole log. */
  totalBytes: number;
  /** In order, not overlapping; together the whole log when `whole`. */
  windows: ViewLogWindow[];
  whole: boolean;
  /** The whole log's path relative to the HTML file, when it sits beside it (same tree); else `null`. */
  href: string | null;
}

/** One step of the patch chain as `eval.log` recorded it. */
export interface ViewPatchStep {
  /** `git apply`, `git apply --reject`, `patch --fuzz=5`, `patch`. */
  method: string;
  applied: boolean;
  /** What the step printed (its failure, or what it applied). */
  output: string;
}

/** A tool call of a trajectory step; `args` and `result` as JSON text, cut to a readable length. */
export interface ViewToolCall {
  name: string;
  args: string;
  result: string;
  /** Characters of the whole result text, before cutting. */
  resultChars: number;
  isError: boolean;
  error: string | null;
  durationMs: number | null;
}

/** One model call of an agent run. */
export interface ViewStep {
  index: number;
  text: string;
  reasoning: string | null;
  finishReason: string;
  toolCalls: ViewToolCall[];
  inputTokens: number | null;
  outputTokens: number | null;
  costUsd: number | null;
}

/** The agent side of an instance (`sandkit run`). */
export interface ViewTrajectory {
  exitStatus: string;
  error: string | null;
  model: string;
  steps: ViewStep[];
  /** The final patch the run took. */
  patch: string;
  /** The trajectory file relative to the HTML file, when beside it; else `null`. */
  href: string | null;
}

/** `sandkit grade`: the official `report.json` beside the log. */
export interface ViewOfficial {
  resolved: boolean;
  agrees: boolean;
  /** Why the verdicts differ (empty when they agree). */
  reasons: string[];
  /** Tests in another list than the official report's, each with why. */
  testDifferences: Array<{ list: string; id: string; official: string; sandkit: string; why: string }>;
}

/** One instance of the run. */
export interface ViewInstance {
  id: string;
  /**
   * The words the table's filter finds it by besides its id, repository and statuses:
   * `FAIL_TO_PASS failed`, `PASS_TO_PASS failed`, `patch did not apply`, `infrastructure error`,
   * `missing tests`, `official agrees` / `official differs`.
   */
  tags: string[];
  /** `owner/name`, from the dataset id (`owner__name-N`, SWE-bench's convention). */
  repo: string;
  /**
   * The grade (`resolved`, `unresolved`, `error`, `empty_patch`), or for an agent run without
   * `--eval` its exit status; {@link exitStatus} keeps the exit status when both exist.
   */
  status: string;
  /** `sandkit eval`/`grade` error kind (`patch_apply`, `sandbox`, …), else `null`. */
  errorKind: string | null;
  infraError: boolean;
  /** The verdict in one sentence: why it is what it is. */
  reason: string;
  f2p: { success: number; total: number } | null;
  p2p: { success: number; total: number } | null;
  tests: ViewTest[];
  /** Which step of the patch chain applied the model patch, `null` when none did. */
  patchMethod: string | null;
  patchSteps: ViewPatchStep[];
  patch: string | null;
  log: ViewLog | null;
  official: ViewOfficial | null;
  notes: string[];
  durationMs: number | null;
  /** Agent runs: its exit status, cost, tokens and steps; `null` elsewhere. */
  exitStatus: string | null;
  costUsd: number | null;
  tokens: number | null;
  steps: number | null;
  trajectory: ViewTrajectory | null;
}

/** Totals of the run. */
export interface ViewTotals {
  instances: number;
  /** Instances per status, in first-met order. */
  byStatus: Record<string, number>;
  resolved: number;
  /** Resolved of all instances, 0..1; `null` when no instance was graded. */
  resolvedRate: number | null;
  /** Resolved of the instances without an infrastructure error, 0..1; `null` when none is left. */
  resolvedRateWithoutInfra: number | null;
  infraErrors: number;
  /** Agent runs: exit statuses; `null` elsewhere. */
  byExitStatus: Record<string, number> | null;
  costUsd: number | null;
  tokens: number | null;
  steps: number | null;
}

/** One run, as the report shows it. */
export interface ViewRun {
  kind: ViewRunKind;
  /** The directory as given on the command line. */
  dir: string;
  title: string;
  model: string | null;
  totals: ViewTotals;
  instances: ViewInstance[];
}

/**
 * The fields of an instance that only its own view needs. The report embeds them apart, one JSON
 * element per instance, parsed when the instance is opened: the page starts with the table's
 * fields only.
 */
export const instanceDetailKeys = [
  'reason',
  'tests',
  'patchSteps',
  'patch',
  'log',
  'notes',
  'trajectory',
] as const;

/** An instance as the page starts with it: without {@link instanceDetailKeys}. */
export type ViewInstanceSummary = Omit<ViewInstance, (typeof instanceDetailKeys)[number]>;

/** The element id of the JSON of run `run`'s instance `index`'s details. */
export const detailElementId = (run: number, index: number): string => `sandkit-detail-${run}-${index}`;

/** What the HTML file embeds: one run, or two to compare (`sandkit view A B`). */
export interface ViewData {
  format: typeof viewDataFormat;
  generatedAt: string;
  runs: [ViewRun] | [ViewRun, ViewRun];
}
