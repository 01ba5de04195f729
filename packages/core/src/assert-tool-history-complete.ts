/**
 * Checks a whole conversation before it is sent: every tool call has its result where the provider
 * requires it. Anthropic, OpenAI Chat and OpenAI Responses all reject a history with an unanswered
 * call (Anthropic then rejects every later request of the conversation, so the session is stuck).
 * @module
 */
import { SandkitError, SandkitErrorCode } from './errors/sandkit-error.js';

type Entry = Record<string, unknown>;

/**
 * Checks a history in any of the three formats (detected per entry):
 * - Anthropic Messages: an assistant message with `tool_use` blocks must be followed by a `user`
 *   message whose content starts with one `tool_result` per id (text only after them);
 * - OpenAI Chat: an assistant message with `tool_calls` must be followed directly by one `role: "tool"`
 *   message per id, with nothing between them;
 * - OpenAI Responses input: each `function_call` item needs one later `function_call_output` with its
 *   `call_id`.
 *
 * @throws SandkitError `incomplete_tool_results` naming each unanswered call, duplicate answer or
 *   misplaced result, with the index of the message.
 */
export function assertToolHistoryComplete(history: readonly object[]): void {
  const entries = history as readonly Entry[];
  const problems: string[] = [];
  entries.forEach((entry, index) => {
    if (entry.role === 'assistant' && Array.isArray(entry.content)) {
      const ids = (entry.content as Entry[]).filter((b) => b.type === 'tool_use').map((b) => String(b.id));
      if (ids.length > 0) problems.push(...checkAnthropicAnswer(ids, entries[index + 1], index));
    }
    if (entry.role === 'assistant' && Array.isArray(entry.tool_calls) && entry.tool_calls.length > 0) {
      problems.push(
        ...checkChatAnswer(
          (entry.tool_calls as Entry[]).map((c) => String(c.id)),
          entries,
          index,
        ),
      );
    }
    if (entry.type === 'function_call') {
      const answers = entries
        .slice(index + 1)
        .filter((e) => e.type === 'function_call_output' && e.call_id === entry.call_id).length;
      if (answers !== 1)
        problems.push(`function_call ${String(entry.call_id)} (item ${index}) has ${answers} outputs`);
    }
  });
  if (problems.length > 0) {
    throw new SandkitError({
      code: SandkitErrorCode.incompleteToolResults,
      message: `The history would be rejected: ${problems.join('; ')}. Answer every tool call with exactly one result right after the assistant turn (executeToolCalls returns one per call).`,
      details: { problems },
    });
  }
}

function checkAnthropicAnswer(ids: string[], next: Entry | undefined, index: number): string[] {
  const where = `(assistant message ${index})`;
  if (next === undefined || next.role !== 'user' || !Array.isArray(next.content)) {
    return ids.map((id) => `tool_use ${id} ${where} has no tool_result in the next user message`);
  }
  const blocks = next.content as Entry[];
  const leading: string[] = [];
  for (const block of blocks) {
    if (block.type !== 'tool_result') break;
    leading.push(String(block.tool_use_id));
  }
  const problems: string[] = [];
  for (const id of ids) {
    const count = leading.filter((answer) => answer === id).length;
    if (count === 0) {
      const later = blocks.some((b) => b.type === 'tool_result' && b.tool_use_id === id);
      problems.push(
        later
          ? `tool_result ${id} ${where} comes after other content; all tool_result blocks must come first`
          : `tool_use ${id} ${where} has no tool_result`,
      );
    } else if (count > 1) problems.push(`tool_use ${id} ${where} has ${count} tool_results`);
  }
  for (const answer of leading) {
    if (!ids.includes(answer)) problems.push(`tool_result ${answer} answers no tool_use of ${where}`);
  }
  return problems;
}

function checkChatAnswer(ids: string[], entries: readonly Entry[], index: number): string[] {
  const where = `(assistant message ${index})`;
  const answered: string[] = [];
  for (let i = index + 1; i < entries.length && entries[i]?.role === 'tool'; i++) {
    answered.push(String(entries[i]?.tool_call_id));
  }
  const problems: string[] = [];
  for (const id of ids) {
    const count = answered.filter((answer) => answer === id).length;
    if (count === 0) problems.push(`tool call ${id} ${where} has no tool message directly after it`);
    else if (count > 1) problems.push(`tool call ${id} ${where} has ${count} tool messages`);
  }
  for (const answer of answered) {
    if (!ids.includes(answer)) problems.push(`tool message ${answer} answers no call of ${where}`);
  }
  return problems;
}
