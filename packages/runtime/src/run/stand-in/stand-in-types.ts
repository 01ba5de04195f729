/**
 * The stand-in's view of one model request and the reply a script chooses. Both wire formats
 * (OpenAI Chat Completions, Anthropic Messages) are read into {@link StandInTurn} and written
 * from {@link StandInReply}, so one script serves every provider.
 */

/** A tool call the model made in an earlier turn. */
export interface StandInToolCall {
  /** The call id as sent on the wire (`call_…` or `toolu_…`). */
  id: string;
  name: string;
  /** Parsed arguments; the raw text when it is not JSON. */
  input: unknown;
}

/** A tool result sent back to the model. */
export interface StandInToolResult {
  /** The id of the call it answers. */
  id: string;
  /** The result as text (JSON for structured results, as the AI SDK sends it). */
  text: string;
}

/** One message of the conversation, flattened to text. */
export interface StandInMessage {
  /** `system`, `user`, `assistant`, or `tool` (a message that carries only tool results). */
  role: string;
  /** Text parts joined by a newline; `''` when there is none. */
  text: string;
  toolCalls?: StandInToolCall[];
  toolResults?: StandInToolResult[];
}

/** What the script sees of one request. */
export interface StandInTurn {
  /** Every message of the request in order (the system prompt first, when there is one). */
  messages: StandInMessage[];
  /** Names of the tools the request offers. */
  tools: string[];
  /** The model id the request names. */
  model: string;
}

/** What the stand-in answers. */
export type StandInReply =
  /** Tool calls with JSON input; the stand-in gives them ids. */
  | { type: 'tool_calls'; calls: { name: string; input: unknown }[] }
  /** A final text answer (finish reason `stop` / `end_turn`). */
  | { type: 'text'; text: string }
  /** An HTTP error; `body` is sent as JSON (a default provider-shaped body when absent). */
  | { type: 'http_error'; status: number; body?: unknown; headers?: Record<string, string> }
  /**
   * One tool call whose arguments text is sent verbatim (e.g. broken JSON). Anthropic's wire has
   * no arguments text: the stand-in sends the parsed JSON, or the raw text as a string `input`.
   */
  | { type: 'raw_tool_call'; name: string; argumentsText: string };

/** Chooses the reply to one request. May keep state across calls (e.g. count requests). */
export type StandInScript = (turn: StandInTurn) => StandInReply | Promise<StandInReply>;

/** Token counts the stand-in reports: about 4 characters a token, as a rough stand-in for a tokenizer. */
export interface StandInUsage {
  inputTokens: number;
  outputTokens: number;
}

/** Rough token count of a text (4 characters a token, at least 1 for a non-empty text). */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
