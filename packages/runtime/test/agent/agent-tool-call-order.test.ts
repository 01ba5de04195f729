/**
 * E03 in the agent loop: the AI SDK starts every tool call of a step at once; the tools of one run
 * still behave as if run in the order the model wrote them.
 */
import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';
import { afterEach, describe, expect, it } from 'vitest';
import { createCodingAgentRuntime } from '../../src/agent/coding-agent-runtime.js';
import {
  createPooledSandboxProvider,
  type PooledSandboxProvider,
} from '../../src/pool/pooled-sandbox-provider.js';
import { type ScriptedStep, scriptedModel, text, toolCall } from './scripted-model.js';

const pools: PooledSandboxProvider[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

describe('createCodingAgentRuntime', () => {
  describe('when each step writes a file and then runs a command that reads it', () => {
    it('E03: every exec of 200 steps sees the file its step wrote', async () => {
      const pool = createPooledSandboxProvider({ adapter: createLocalSandboxAdapter(), max: 1 });
      pools.push(pool);
      const turns = 200;
      const steps: ScriptedStep[] = [];
      for (let turn = 0; turn < turns; turn++) {
        steps.push([
          toolCall(`w${turn}`, 'write_file', { path: `g-${turn}.txt`, content: `hi ${turn}` }),
          toolCall(`x${turn}`, 'exec', { command: `cat g-${turn}.txt` }),
        ]);
      }
      steps.push([text('done')]);
      const agent = createCodingAgentRuntime({
        sandboxProvider: pool,
        model: scriptedModel(steps),
        maxSteps: turns + 1,
      });
      const result = await agent.run({ task: 'Write and read.' });

      const execs = result.toolCalls.filter((call) => call.toolName === 'exec');
      expect(execs).toHaveLength(turns);
      const wrong = execs.filter((call, turn) => {
        const output = call.output as { exitCode?: number | null; stdout?: string } | undefined;
        return call.isError || output?.exitCode !== 0 || output.stdout !== `hi ${turn}`;
      });
      expect(wrong).toEqual([]);
    }, 180_000);
  });
});
