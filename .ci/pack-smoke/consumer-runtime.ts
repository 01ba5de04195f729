// TypeScript consumer of the installed runtime, type-checked (not run) under NodeNext and under
// bundler resolution with skipLibCheck false. The runtime's declarations import the AI SDK and the
// MCP SDK, whose own declarations need the DOM lib (HeadersInit, FileList) and @types/json-schema.
import { createHttpSandboxAdapter, type HttpSandboxHandle } from '@sandkit/sandbox-adapters/http';
import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';
import { type SandboxServer, startSandboxServer } from '@sandkit/sandbox-adapters/serve';
import { createCodingTools } from '@sandkit/tools';
import { createCodingAgentRuntime, createMcpServer, createPooledSandboxProvider } from '@sandkit/runtime';

export async function run(): Promise<void> {
  const adapter = createLocalSandboxAdapter();
  const provider = createPooledSandboxProvider({ adapter, min: 0, max: 2 });
  const session = await provider.acquire();
  void createMcpServer(createCodingTools(session.client));
  void createCodingAgentRuntime;
  await session.release();
  await provider.close();
  const server: SandboxServer = await startSandboxServer({ port: 0, token: 'example-token' });
  const remote: HttpSandboxHandle = await createHttpSandboxAdapter({
    baseURL: server.url,
    auth: { token: 'example-token' },
  }).create();
  await remote.destroy();
  await server.close();
}
