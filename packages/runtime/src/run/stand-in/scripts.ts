/**
 * Ready-made stand-in scripts: the oracle (applies each instance's gold patch) and the faults a
 * run must survive (a model that never stops, broken tool calls, rate limits, server errors,
 * context overflow). Each script decides from the request alone, except where it says it counts.
 */
import type { ModelProvider } from '../model/resolve-model.js';
import type { StandInMessage, StandInScript, StandInTurn } from './stand-in-types.js';

/** What the oracle needs of a dataset instance (SWE-bench field names). */
export interface OracleInstance {
  instance_id: string;
  problem_statement: string;
  /** The gold patch, a unified diff. */
  patch: string;
}

/**
 * The oracle: finds the instance whose `problem_statement` occurs in the first user message,
 * calls `apply_diff` with `{ diff: patch }`, and after the tool result answers `done` — or
 * `apply_diff failed: <result>` when the result is not apply_diff's success output (an error text,
 * or no `files`). With no matching instance it answers a text saying so, and never calls a tool.
 */
export function oracleScript(instances: readonly OracleInstance[]): StandInScript {
  return (turn) => {
    const result = lastToolResultText(turn);
    if (result !== undefined) {
      return { type: 'text', text: appliedOk(result) ? 'done' : `apply_diff failed: ${result}` };
    }
    const prompt = turn.messages.find((m) => m.role === 'user')?.text ?? '';
    const instance = instances.find(
      (i) => i.problem_statement !== '' && prompt.includes(i.problem_statement),
    );
    if (instance === undefined) {
      return { type: 'text', text: 'oracle: no instance problem_statement occurs in the first user message' };
    }
    return { type: 'tool_calls', calls: [{ name: 'apply_diff', input: { diff: instance.patch } }] };
  };
}

/** Calls `exec` with `echo step` on every turn, forever: for step limits and budgets. */
export function neverStopsScript(): StandInScript {
  return () => ({ type: 'tool_calls', calls: [{ name: 'exec', input: { command: 'echo step' } }] });
}

/**
 * First calls `exec` with arguments that are not JSON (`{"command": "echo hi"` without its brace);
 * after the (error) tool result answers `saw: <result>`.
 */
export function malformedToolCallScript(): StandInScript {
  return (turn) => {
    const result = lastToolResultText(turn);
    if (result !== undefined) return { type: 'text', text: `saw: ${result}` };
    return { type: 'raw_tool_call', name: 'exec', argumentsText: '{"command": "echo hi"' };
  };
}

/** Calls `exec` with arguments that are not JSON on every turn: a model that never writes a valid call (`format_error`). */
export function alwaysMalformedToolCallScript(): StandInScript {
  return () => ({ type: 'raw_tool_call', name: 'exec', argumentsText: '{"command": "echo hi"' });
}

/** First calls a tool that is not offered (`no_such_tool`); after the tool result answers `saw: <result>`. */
export function unknownToolScript(): StandInScript {
  return (turn) => {
    const result = lastToolResultText(turn);
    if (result !== undefined) return { type: 'text', text: `saw: ${result}` };
    return { type: 'tool_calls', calls: [{ name: 'no_such_tool', input: {} }] };
  };
}

/**
 * Answers the first request (counted by this script) with HTTP 429 and `retry-after: 1`
 * (seconds; the AI SDK waits that long, as it honours retry-after between 0 and 60 s), then
 * hands every request to `inner`.
 */
export function rateLimitedOnceScript(inner: StandInScript): StandInScript {
  let seen = 0;
  return (turn) => {
    seen += 1;
    if (seen === 1) return { type: 'http_error', status: 429, headers: { 'retry-after': '1' } };
    return inner(turn);
  };
}

/** Answers every request with HTTP 500 (the provider's default error body). */
export function alwaysServerErrorScript(): StandInScript {
  return () => ({ type: 'http_error', status: 500 });
}

/**
 * Answers every request with HTTP 400 and the body the provider really sends for a prompt over
 * the context window: Anthropic's `prompt is too long` invalid_request_error, OpenAI's
 * `context_length_exceeded`, or (for `openai-compatible`) llama.cpp server's
 * `exceed_context_size_error`.
 */
export function contextOverflowScript(provider: ModelProvider): StandInScript {
  const body = contextOverflowBodies[provider];
  return () => ({ type: 'http_error', status: 400, body });
}

const openaiOverflow = {
  error: {
    message:
      "This model's maximum context length is 128000 tokens. However, your messages resulted in 130412 tokens. Please reduce the length of the messages.",
    type: 'invalid_request_error',
    param: 'messages',
    code: 'context_length_exceeded',
  },
};

const contextOverflowBodies: Record<ModelProvider, unknown> = {
  anthropic: {
    type: 'error',
    error: { type: 'invalid_request_error', message: 'prompt is too long: 208310 tokens > 200000 maximum' },
  },
  openai: openaiOverflow,
  'openai-chat': openaiOverflow,
  'openai-compatible': {
    error: {
      code: 400,
      message: 'the request exceeds the available context size, try increasing it',
      type: 'exceed_context_size_error',
      n_prompt_tokens: 9000,
      n_ctx: 8192,
    },
  },
};

function lastToolResultText(turn: StandInTurn): string | undefined {
  const last: StandInMessage | undefined = turn.messages.at(-1);
  const results = last?.toolResults;
  if (results === undefined || results.length === 0) return undefined;
  return results.map((r) => r.text).join('\n');
}

function appliedOk(text: string): boolean {
  try {
    const output = JSON.parse(text) as { files?: unknown };
    return Array.isArray(output.files) && output.files.length > 0;
  } catch {
    return false;
  }
}
