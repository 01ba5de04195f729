/**
 * A provider that refuses the key (HTTP 401 or 403, `classifyModelError` kind `auth`) refuses it
 * for every instance: the run stops at the first such answer instead of spending the dataset on
 * it, and says which variable holds the key. The refused instance is not final (`--resume` runs it
 * again once the key is fixed).
 * @module
 */
import type { RunStop } from './run-record.js';
import type { Trajectory } from './trajectory-schema.js';

/** The key variable each provider prefix of a `--model` spec reads (see `resolveModel`). */
const keyVariables: Record<string, string> = {
  anthropic: 'ANTHROPIC_API_KEY',
  openai: 'OPENAI_API_KEY',
  'openai-chat': 'OPENAI_API_KEY',
  'openai-compatible': 'OPENAI_COMPATIBLE_API_KEY',
};

/** The stop a trajectory calls for, or `null` when its instance did not end on a refused key. */
export function authStop(trajectory: Trajectory): RunStop | null {
  if (trajectory.exit_status !== 'model_error' || trajectory.error?.kind !== 'auth') return null;
  const prefix = trajectory.model.name.split(':')[0] ?? '';
  const variable = keyVariables[prefix];
  const where = variable === undefined ? 'the API key you gave the model' : variable;
  return {
    reason: 'auth',
    instance_id: trajectory.instance_id,
    message: `the provider refused the credentials for ${trajectory.model.name} (${firstLine(trajectory.error.message)}): check ${where}, then run again with --resume; the run stopped at ${trajectory.instance_id}, since every other instance would be refused too`,
  };
}

function firstLine(text: string): string {
  return (text.split('\n')[0] ?? '').slice(0, 300);
}
