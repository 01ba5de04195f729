/**
 * The sandkit agent loop on the Vercel AI SDK: a pool of warm sandboxes, one per run, any AI SDK model.
 *
 *   AI_GATEWAY_API_KEY=... pnpm tsx examples/ai-sdk-agent.ts "Add a --verbose flag to cli.py"
 *
 * A model id string goes through the Vercel AI Gateway; pass any provider's model object instead
 * (for example `anthropic('claude-sonnet-5-5')` from @ai-sdk/anthropic). The model id is `$AI_MODEL`,
 * by default `anthropic/claude-sonnet-5.5`. The run's workspace is a
 * fresh git repo, so `diff` shows exactly what the agent changed.
 */
import { createCodingAgentRuntime, createPooledSandboxProvider } from '@sandkit/runtime';
import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';

const task =
  process.argv[2] ??
  'Create fizzbuzz.py (1..15) with a test in test_fizzbuzz.py, and run the test with python3 -m unittest.';

const pool = createPooledSandboxProvider({ adapter: createLocalSandboxAdapter(), min: 1, max: 2 });
const agent = createCodingAgentRuntime({
  sandboxProvider: pool,
  model: process.env.AI_MODEL ?? 'anthropic/claude-sonnet-5.5',
  system: 'You are a careful coding agent. Read before you edit; run the tests before you finish.',
  maxSteps: 25,
  onStep: (step) => {
    for (const call of step.toolCalls) console.error(`→ ${call.toolName}${call.isError ? ' (error)' : ''}`);
  },
  record: { file: 'trajectories/ai-sdk-agent.jsonl' },
});

const controller = new AbortController();
process.once('SIGINT', () => controller.abort());
try {
  const result = await agent.run({
    task,
    signal: controller.signal,
    setup: async ({ client }) => {
      await client.exec(
        'git init -q && git -c user.name=a -c user.email=a@example.com commit -q --allow-empty -m base',
      );
    },
  });
  console.log(result.text);
  console.log(
    `\n${result.steps.length} steps, ${result.toolCalls.length} tool calls, ${result.usage.totalTokens ?? '?'} tokens`,
  );
  console.log(result.diff || '(no changes)');
} finally {
  await pool.close();
}
