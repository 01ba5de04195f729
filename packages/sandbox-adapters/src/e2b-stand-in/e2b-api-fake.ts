/**
 * A fake of E2B's cloud for the SDK outside debug mode: its REST API (create, connect, timeout,
 * pause, kill, get, list) and its proxy to each sandbox's envd, both on one loopback port. Pass
 * `url` as the SDK's `apiUrl` and `sandboxUrl` (the SDK sends `E2b-Sandbox-Id` on every envd
 * request, and the fake routes by it). Each sandbox is an {@link E2BStandIn}.
 *
 * Shapes and rules read from e2b-dev/infra at commit 54693ff353d26c5fe1951db5467e751f3e2f984e,
 * `packages/api/internal/handlers/` (sandbox_create, sandbox_connect, sandbox_timeout,
 * sandbox_pause, sandbox_kill, sandboxes_list) and the `e2b` 2.51.0 SDK's calls:
 * - every call needs `X-API-KEY`, else 401; errors are JSON `{code, message}`;
 * - `POST /v2/sandboxes` → 201 `{sandboxID, templateID, clientID, envdVersion}`; lifetime
 *   `timeout` seconds, or 15 s when absent (`sandboxtypes.SandboxTimeoutDefault`); an unknown
 *   template is 404; more than `maxSandboxes` running is 429;
 * - `POST /v2/sandboxes/{id}/connect` → 200 for a running sandbox (lifetime only ever extended),
 *   201 after resuming a paused one (lifetime `timeout`, 15 s when absent); unknown → 404;
 * - `POST /sandboxes/{id}/timeout` `{timeout}` → 204 (sets the lifetime from now, shorter too);
 * - `POST /sandboxes/{id}/pause` → 204, 409 when already paused; `DELETE /sandboxes/{id}` → 204;
 *   unknown ids → 404;
 * - a sandbox whose lifetime ends is killed; envd requests for a sandbox that is not running get
 *   the proxy's 502 (`sandbox-not-found.ts`).
 * @module
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type E2BStandIn, startE2BStandIn } from './e2b-stand-in.js';
import type { TemplateDirectories } from './sandbox-file-system.js';
import { sendSandboxNotFound } from './sandbox-not-found.js';

/** One sandbox as the fake's API sees it. */
export interface FakeSandbox {
  readonly sandboxId: string;
  readonly templateId: string;
  readonly metadata: Record<string, string>;
  readonly standIn: E2BStandIn;
  state: 'running' | 'paused' | 'killed';
  startedAt: Date;
  /** When E2B kills it (ms since the epoch). */
  endAt: number;
  timer?: NodeJS.Timeout;
}

/** A running fake. */
export interface E2BApiFake {
  /** Pass as the SDK's `apiUrl` and `sandboxUrl`. */
  readonly url: string;
  /** Every sandbox made, killed ones included, by id. */
  readonly sandboxes: ReadonlyMap<string, FakeSandbox>;
  /** REST calls received, oldest first (`POST /v2/sandboxes`, …) with their JSON bodies. */
  readonly calls: readonly { method: string; path: string; body: unknown }[];
  /** Kills every sandbox and stops the server. */
  close(): Promise<void>;
}

/**
 * What a template gives its sandboxes, as one built with E2B's template builder does (`fromImage`,
 * `setUser`: "the last set user and workdir in the template is persisted as a default to the
 * sandbox execution", e2b.dev/docs/template/user-and-workdir).
 */
export interface FakeTemplate {
  /** The default user commands run as (the stand-in must run as root to switch). @default 'user' */
  user?: string;
  /** The sandbox's own directories, copied from host directories (see `sandbox-file-system.ts`). @default {} */
  directories?: TemplateDirectories;
}

/** Options of {@link startE2BApiFake}. */
export interface E2BApiFakeOptions {
  /** The one API key accepted. */
  apiKey: string;
  /**
   * Templates that exist: names (each sandbox runs as `user` on the host's file system), or names
   * with what each template holds ({@link FakeTemplate}). @default ['base', 'code-interpreter-v1']
   */
  templates?: readonly string[] | Readonly<Record<string, FakeTemplate>>;
  /** Running sandboxes allowed at once before create answers 429. @default 20 */
  maxSandboxes?: number;
  /** envd version reported for new sandboxes. @default '0.6.13' */
  envdVersion?: string;
}

const defaultLifetimeMs = 15_000;

/** Starts the fake on a free loopback port. */
export async function startE2BApiFake(options: E2BApiFakeOptions): Promise<E2BApiFake> {
  const given = options.templates ?? ['base', 'code-interpreter-v1'];
  const templates: ReadonlyMap<string, FakeTemplate> = new Map(
    Array.isArray(given)
      ? given.map((name: string) => [name, {}])
      : Object.entries(given as Readonly<Record<string, FakeTemplate>>),
  );
  const maxSandboxes = options.maxSandboxes ?? 20;
  const envdVersion = options.envdVersion ?? '0.6.13';
  const sandboxes = new Map<string, FakeSandbox>();
  const calls: { method: string; path: string; body: unknown }[] = [];

  const kill = async (sandbox: FakeSandbox): Promise<void> => {
    clearTimeout(sandbox.timer);
    sandbox.state = 'killed';
    await sandbox.standIn.close();
  };
  const setLifetime = (sandbox: FakeSandbox, ms: number): void => {
    clearTimeout(sandbox.timer);
    sandbox.endAt = Date.now() + ms;
    sandbox.timer = setTimeout(() => void kill(sandbox), ms);
    sandbox.timer.unref();
  };
  const describe = (sandbox: FakeSandbox) => ({
    sandboxID: sandbox.sandboxId,
    templateID: sandbox.templateId,
    clientID: 'sandkit-fake',
    envdVersion,
    metadata: sandbox.metadata,
    startedAt: sandbox.startedAt.toISOString(),
    endAt: new Date(sandbox.endAt).toISOString(),
    state: sandbox.state,
    cpuCount: 2,
    memoryMB: 512,
  });

  const api = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', 'http://fake');
    const text = await readText(request);
    const body = text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
    calls.push({ method: request.method ?? '', path: url.pathname, body });
    if (request.headers['x-api-key'] !== options.apiKey) {
      return sendError(response, 401, 'Invalid API key, it must start with e2b_ and be valid');
    }
    const match = /^\/(?:v2\/)?sandboxes\/([^/]+)(?:\/(connect|timeout|pause))?$/.exec(url.pathname);
    const sandbox = match ? sandboxes.get(match[1] as string) : undefined;
    const route = `${request.method} ${match ? `/sandboxes/:id${match[2] ? `/${match[2]}` : ''}` : url.pathname}`;
    if (match && (sandbox === undefined || sandbox.state === 'killed')) {
      return sendError(response, 404, `sandbox "${match[1]}" doesn't exist or you don't have access to it`);
    }
    const seconds = typeof body.timeout === 'number' ? body.timeout * 1000 : undefined;
    switch (route) {
      case 'POST /v2/sandboxes': {
        const templateId = String(body.templateID ?? 'base');
        const template = templates.get(templateId);
        if (template === undefined) return sendError(response, 404, `template '${templateId}' not found`);
        const running = [...sandboxes.values()].filter((s) => s.state !== 'killed').length;
        if (running >= maxSandboxes) {
          return sendError(
            response,
            429,
            `You have reached the maximum number of concurrent E2B sandboxes (${maxSandboxes})`,
          );
        }
        const sandboxId = `i${randomBytes(10).toString('hex')}`;
        const standIn = await startE2BStandIn({
          sandboxId,
          listen: false,
          ...(template.user === undefined ? {} : { user: template.user }),
          ...(template.directories === undefined ? {} : { directories: template.directories }),
        });
        const created: FakeSandbox = {
          sandboxId,
          templateId,
          metadata: (body.metadata as Record<string, string>) ?? {},
          standIn,
          state: 'running',
          startedAt: new Date(),
          endAt: 0,
        };
        sandboxes.set(sandboxId, created);
        setLifetime(created, seconds ?? defaultLifetimeMs);
        return sendJson(response, 201, describe(created));
      }
      case 'GET /v2/sandboxes': {
        const states = url.searchParams.get('state')?.split(',') ?? ['running', 'paused'];
        const wanted = new URLSearchParams(url.searchParams.get('metadata') ?? '');
        const listed = [...sandboxes.values()].filter(
          (s) => states.includes(s.state) && [...wanted].every(([key, value]) => s.metadata[key] === value),
        );
        return sendJson(response, 200, listed.map(describe));
      }
      case 'GET /sandboxes/:id':
        return sendJson(response, 200, describe(sandbox as FakeSandbox));
      case 'POST /sandboxes/:id/connect': {
        const found = sandbox as FakeSandbox;
        if (found.state === 'running') {
          const ms = seconds ?? 0;
          if (Date.now() + ms > found.endAt) setLifetime(found, ms);
          return sendJson(response, 200, describe(found));
        }
        await found.standIn.resume();
        found.state = 'running';
        setLifetime(found, seconds ?? defaultLifetimeMs);
        return sendJson(response, 201, describe(found));
      }
      case 'POST /sandboxes/:id/timeout':
        if (seconds === undefined || seconds < 0)
          return sendError(response, 400, 'Error when parsing request: timeout');
        if ((sandbox as FakeSandbox).state !== 'running')
          return sendError(response, 404, 'sandbox is not running');
        setLifetime(sandbox as FakeSandbox, seconds);
        response.writeHead(204).end();
        return;
      case 'POST /sandboxes/:id/pause': {
        const found = sandbox as FakeSandbox;
        if (found.state === 'paused')
          return sendError(response, 409, `Sandbox '${found.sandboxId}' is already paused`);
        clearTimeout(found.timer);
        found.state = 'paused';
        await found.standIn.pause();
        response.writeHead(204).end();
        return;
      }
      case 'DELETE /sandboxes/:id':
        await kill(sandbox as FakeSandbox);
        response.writeHead(204).end();
        return;
      default:
        return sendError(response, 404, `${request.method} ${url.pathname} is not served by the fake`);
    }
  };

  const server: Server = createServer((request, response) => {
    const sandboxId = request.headers['e2b-sandbox-id'];
    if (typeof sandboxId === 'string') {
      const sandbox = sandboxes.get(sandboxId);
      if (sandbox === undefined || sandbox.state !== 'running') {
        request.resume();
        return sendSandboxNotFound(response, sandboxId);
      }
      return sandbox.standIn.handle(request, response);
    }
    api(request, response).catch((error: Error) => {
      if (!response.headersSent) sendError(response, 500, error.message);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    sandboxes,
    calls,
    async close() {
      await Promise.all([...sandboxes.values()].filter((s) => s.state !== 'killed').map(kill));
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function sendError(response: ServerResponse, code: number, message: string): void {
  sendJson(response, code, { code, message });
}

async function readText(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
