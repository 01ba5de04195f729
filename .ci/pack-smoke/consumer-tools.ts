// TypeScript consumer of the installed core, tools and local adapter, type-checked (not run) under
// NodeNext and under bundler resolution with skipLibCheck false and only the ES lib (no DOM), without
// @types/dockerode (this app skips Docker).
import {
  type ExecResult,
  executeToolCall,
  type SandboxClient,
  SandkitError,
  SandkitErrorCode,
  type Tool,
  toAnthropicTools,
  toOpenAITools,
} from '@sandkit/core';
import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';
import { createCodingTools, parseTestOutput } from '@sandkit/tools';
import { getTestStatuses, parseTestOutput as parseOnly } from '@sandkit/tools/parsers';

export async function run(): Promise<string> {
  const sandbox = await createLocalSandboxAdapter().create();
  const client: SandboxClient = sandbox.client;
  const tools: Tool[] = createCodingTools(client, { root: sandbox.workdir });
  const result = await executeToolCall(tools, { name: 'exec', input: { command: 'true' } });
  const exec: ExecResult = await client.exec('echo hi');
  void parseTestOutput;
  void getTestStatuses(parseOnly('PASSED t.py::test_a', { framework: 'pytest' }));
  void toAnthropicTools(tools);
  void toOpenAITools(tools, { api: 'responses' });
  await sandbox.destroy();
  if (result.isError) throw new SandkitError({ code: SandkitErrorCode.invalidOption, message: 'unexpected' });
  return exec.stdout;
}
