import type { ServerResponse } from 'node:http';

/**
 * Answers as E2B's proxy does for a sandbox that is not running (killed, expired or paused):
 * HTTP 502 with `{"sandboxId", "message": "The sandbox was not found", "code": 502}`
 * (e2b-dev/infra `packages/shared/pkg/proxy/template/sandbox_not_found.go`). The SDK maps it to
 * `TimeoutError` for file calls and unary RPCs, and to `SandboxNotFoundError` when a command starts.
 */
export function sendSandboxNotFound(response: ServerResponse, sandboxId: string): void {
  response
    .writeHead(502, { 'content-type': 'application/json' })
    .end(JSON.stringify({ sandboxId, message: 'The sandbox was not found', code: 502 }));
}
