/**
 * The exit statuses of one instance of `sandkit run`: a fixed set, each with its meaning. Every
 * instance ends with exactly one, and its patch is taken whatever the status.
 * @module
 */

/** Every exit status, with what it means (the docs and `sandkit run --help` print these). */
export const agentExitStatuses = {
  submitted: 'the model ended its turn without a tool call (its final answer)',
  step_limit: 'the model still called tools after --step-limit model calls',
  cost_limit: 'the next model call would start at or past --cost-limit (or --total-cost-limit for the run)',
  timeout: 'the instance ran past --instance-timeout (wall clock, preparation included)',
  context_overflow: "the provider refused a request as longer than the model's context window",
  model_error:
    'a model request kept failing after its retries (server errors, rate limits, a bad response); a refused key (401/403) stops the whole run',
  format_error:
    'three model calls in a row had only tool calls that could not run: malformed JSON arguments or an unknown tool',
  sandbox_error:
    "the sandbox could not be created or prepared (repository, setup_cmd), or died under the agent's tools (a failed create or a dead sandbox is first retried once on a fresh sandbox)",
  aborted: 'the run was interrupted (Ctrl-C, SIGTERM); a resumed run runs the instance again',
} as const;

/** One of {@link agentExitStatuses}. */
export type AgentExitStatus = keyof typeof agentExitStatuses;

/** The statuses in their documented order. */
export const agentExitStatusList = Object.keys(agentExitStatuses) as AgentExitStatus[];

/**
 * Statuses a resumed run (`--resume`) runs again: `aborted` (cut short by the operator) and
 * `sandbox_error` (the infrastructure failed, so nothing is known about the model). Every other
 * status is final.
 */
export const rerunStatuses: ReadonlySet<AgentExitStatus> = new Set(['aborted', 'sandbox_error']);

/**
 * Whether a kept trajectory is final for `--resume`: not one of {@link rerunStatuses}, and not a
 * `model_error` of kind `auth` (the provider refused the key, so the model never ran; the run
 * stopped there).
 */
export function isFinalStatus(status: string, errorKind: string | null): boolean {
  if (rerunStatuses.has(status as AgentExitStatus)) return false;
  return !(status === 'model_error' && errorKind === 'auth');
}
