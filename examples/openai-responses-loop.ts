/**
 * A hand-written agent loop on the OpenAI Responses API with sandkit tools.
 *
 *   OPENAI_API_KEY=... pnpm tsx examples/openai-responses-loop.ts "Write fizzbuzz.py and run it"
 *
 * The model is `$OPENAI_MODEL`, by default `gpt-5.4`.
 *
 * Runs in a local sandbox (a temp directory; no isolation). Tools are sent with an explicit
 * `strict` (C05); every `function_call` of a response gets exactly one `function_call_output`, in
 * order, also when a call fails or is aborted (C07).
 */
import { executeToolCalls, toOpenAIResponsesToolOutputs, toOpenAITools } from '@sandkit/core';
import { defaultCodingTools } from '@sandkit/runtime';
import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';
import OpenAI from 'openai';

const task =
  process.argv[2] ?? 'Create hello.py that prints "hello", run it with python3 and tell me the output.';
const model = process.env.OPENAI_MODEL ?? 'gpt-5.4';
const maxSteps = 20;

const sandbox = await createLocalSandboxAdapter().create();
const tools = defaultCodingTools(sandbox.client, sandbox.workdir);
const openai = new OpenAI();
const input: OpenAI.Responses.ResponseInput = [{ role: 'user', content: task }];
const controller = new AbortController();
process.once('SIGINT', () => controller.abort());

try {
  for (let step = 0; step < maxSteps; step++) {
    const response = await openai.responses.create(
      { model, input, tools: toOpenAITools(tools, { api: 'responses', strict: false }) },
      { signal: controller.signal },
    );
    input.push(...(response.output as OpenAI.Responses.ResponseInputItem[]));
    if (response.output_text) console.log(response.output_text);
    const calls = response.output.filter((item) => item.type === 'function_call');
    if (calls.length === 0) break;
    for (const call of calls) console.error(`→ ${call.name} ${call.arguments}`);
    const results = await executeToolCalls(tools, calls, { signal: controller.signal });
    input.push(...toOpenAIResponsesToolOutputs(results, { calls: response.output }));
  }
} finally {
  await sandbox.destroy();
}
