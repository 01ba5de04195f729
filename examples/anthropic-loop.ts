/**
 * A hand-written agent loop on the Anthropic Messages API with sandkit tools.
 *
 *   ANTHROPIC_API_KEY=... pnpm tsx examples/anthropic-loop.ts "Write fizzbuzz.py and run it"
 *
 * The model is `$ANTHROPIC_MODEL`, by default `claude-sonnet-5-5` (the SDK in the lockfile warns on
 * every call to `claude-sonnet-4-5`, deprecated).
 *
 * Runs in a local sandbox (a temp directory; no isolation: use the Docker adapter for untrusted work).
 * All calls of one assistant turn run in parallel and are answered in ONE user message whose
 * tool_result blocks come first, one per tool_use id, in order (case C07).
 */
import Anthropic from '@anthropic-ai/sdk';
import { executeToolCalls, toAnthropicToolResultMessage, toAnthropicTools } from '@sandkit/core';
import { defaultCodingTools } from '@sandkit/runtime';
import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';

const task =
  process.argv[2] ?? 'Create hello.py that prints "hello", run it with python3 and tell me the output.';
const model = process.env.ANTHROPIC_MODEL ?? 'claude-sonnet-5-5';
const maxSteps = 20;

const sandbox = await createLocalSandboxAdapter().create();
const tools = defaultCodingTools(sandbox.client, sandbox.workdir);
const anthropic = new Anthropic();
const messages: Anthropic.MessageParam[] = [{ role: 'user', content: task }];
const controller = new AbortController();
process.once('SIGINT', () => controller.abort()); // Ctrl-C kills running commands; every call still gets a result

try {
  for (let step = 0; step < maxSteps; step++) {
    const response = await anthropic.messages.create(
      { model, max_tokens: 4096, tools: toAnthropicTools(tools), messages },
      { signal: controller.signal },
    );
    messages.push({ role: 'assistant', content: response.content });
    for (const block of response.content) if (block.type === 'text') console.log(block.text);
    const calls = response.content.filter((block) => block.type === 'tool_use');
    if (calls.length === 0) break;
    for (const call of calls) console.error(`→ ${call.name} ${JSON.stringify(call.input)}`);
    const results = await executeToolCalls(tools, calls, { signal: controller.signal });
    messages.push(toAnthropicToolResultMessage(results, { calls: response.content }));
  }
} finally {
  await sandbox.destroy();
}
