/**
 * A local HTTP server that answers like a model provider, driven by a script, so `sandkit run`
 * and its tests drive the real provider packages end to end without a real model:
 *
 * - `POST /v1/chat/completions`: OpenAI Chat Completions (for `openai-chat:` and
 *   `openai-compatible:` specs).
 * - `POST /v1/responses`: OpenAI Responses (for `openai:` specs).
 * - `POST /v1/messages`: Anthropic Messages (for `anthropic:` specs).
 *
 * Each answers as one JSON body, or as server-sent events when the request says `stream: true`
 * (what the providers send for `streamText`): each route in its API's own event shapes.
 *
 * Every reply reports usage (about 4 characters a token). Anything else is a 404 JSON error.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SandkitError, SandkitErrorCode } from '@sandkit/core';
import { anthropicMessageEvents, type ServerSentEvent } from './anthropic-messages-stream.js';
import { anthropicErrorBody, anthropicMessage, readMessagesRequest } from './anthropic-messages-wire.js';
import {
  chatCompletion,
  chatCompletionChunks,
  chatErrorBody,
  readChatRequest,
} from './chat-completions-wire.js';
import { responsesEvents } from './responses-stream.js';
import { readResponsesRequest, responsesResponse } from './responses-wire.js';
import { estimateTokens, type StandInReply, type StandInScript, type StandInTurn } from './stand-in-types.js';

/** Options of {@link startModelStandIn}. */
export interface ModelStandInOptions {
  /** Chooses each reply. */
  script: StandInScript;
  /** TCP port on 127.0.0.1. @default 0 (a free port) */
  port?: number;
}

/** A running stand-in. */
export interface ModelStandIn {
  /** `http://127.0.0.1:<port>/v1`: the base URL for `resolveModel` (every provider). */
  baseURL: string;
  /** How many model requests (chat completions or messages) arrived so far, errors included. */
  requests: () => number;
  /** Stops the server and drops open connections. */
  close(): Promise<void>;
}

/**
 * Starts the stand-in on 127.0.0.1. Point any of `resolveModel`'s providers at its `baseURL` to
 * test an agent loop against scripted replies (see the scripts: `oracleScript`, `neverStopsScript`,
 * `alwaysServerErrorScript`, …) with the real provider package on the wire; close it after.
 * @example
 * ```ts
 * const standIn = await startModelStandIn({ script: neverStopsScript() });
 * const { model } = resolveModel('anthropic:stand-in', { baseURL: standIn.baseURL, apiKey: 'x' });
 * try {
 *   await generateText({ model, tools, prompt, stopWhen: stepCountIs(3) });
 * } finally {
 *   await standIn.close();
 * }
 * ```
 * @throws SandkitError `invalid_option` when the port cannot be listened on (the message names it).
 */
export async function startModelStandIn(options: ModelStandInOptions): Promise<ModelStandIn> {
  let requests = 0;
  const server = createServer((req, res) => {
    const route = req.method === 'POST' ? routeOf(req.url ?? '') : undefined;
    if (route === undefined) {
      sendJson(res, 404, {
        error: { message: `stand-in has no ${req.method} ${req.url}`, type: 'not_found' },
      });
      return;
    }
    requests += 1;
    const id = `standin${requests}`;
    handle(route, req, res, options.script, id).catch((error: unknown) => {
      if (!res.headersSent) {
        sendJson(res, 500, {
          error: { message: `stand-in script failed: ${(error as Error).message}`, type: 'server_error' },
        });
      } else res.destroy();
    });
  });
  const port = options.port ?? 0;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (cause) =>
      reject(
        new SandkitError({
          code: SandkitErrorCode.invalidOption,
          message: `model stand-in cannot listen on 127.0.0.1:${port}: ${cause.message}; pick another port or 0`,
          cause,
        }),
      ),
    );
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${address.port}/v1`,
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type Route = 'chat' | 'responses' | 'messages';

function routeOf(url: string): Route | undefined {
  const path = url.split('?')[0];
  if (path === '/v1/chat/completions') return 'chat';
  if (path === '/v1/responses') return 'responses';
  if (path === '/v1/messages') return 'messages';
  return undefined;
}

async function handle(
  route: Route,
  req: IncomingMessage,
  res: ServerResponse,
  script: StandInScript,
  id: string,
): Promise<void> {
  const text = await readBody(req);
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    sendJson(res, 400, { error: { message: 'request body is not JSON', type: 'invalid_request_error' } });
    return;
  }
  const turn: StandInTurn =
    route === 'chat'
      ? readChatRequest(body)
      : route === 'responses'
        ? readResponsesRequest(body)
        : readMessagesRequest(body);
  const reply = await script(turn);
  if (reply.type === 'http_error') {
    const fallback = route !== 'messages' ? chatErrorBody(reply.status) : anthropicErrorBody(reply.status);
    sendJson(res, reply.status, reply.body ?? fallback, reply.headers);
    return;
  }
  const usage = {
    inputTokens: Math.max(1, estimateTokens(JSON.stringify(body.messages ?? body.input ?? ''))),
    outputTokens: outputTokens(reply),
  };
  const context = { id, model: turn.model, created: Math.floor(Date.now() / 1000), usage };
  const stream = body.stream === true;
  if (route === 'messages') {
    if (stream) sendEvents(res, anthropicMessageEvents(reply, context), null);
    else sendJson(res, 200, anthropicMessage(reply, context));
    return;
  }
  if (route === 'responses') {
    if (stream) sendEvents(res, responsesEvents(reply, context), null);
    else sendJson(res, 200, responsesResponse(reply, context));
    return;
  }
  if (stream) {
    // Chat Completions sends bare `data:` lines and ends with `data: [DONE]`
    sendEvents(
      res,
      chatCompletionChunks(reply, context).map((data) => ({ event: null, data })),
      '[DONE]',
    );
    return;
  }
  sendJson(res, 200, chatCompletion(reply, context));
}

/** Writes server-sent events (`event:` when named, then `data:`), then `data: <done>` when given. */
function sendEvents(res: ServerResponse, events: readonly ServerSentEvent[], done: string | null): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const { event, data } of events) {
    res.write(`${event === null ? '' : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`);
  }
  res.end(done === null ? '' : `data: ${done}\n\n`);
}

function outputTokens(reply: Exclude<StandInReply, { type: 'http_error' }>): number {
  const text =
    reply.type === 'text'
      ? reply.text
      : reply.type === 'raw_tool_call'
        ? reply.argumentsText
        : JSON.stringify(reply.calls);
  return Math.max(1, estimateTokens(text));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}
