/**
 * The Hono app of `sandkit serve`: the routes of `docs/http-protocol.md`, bearer-token auth on
 * every `/v1/` route (Hono's `bearerAuth`, a timing-safe compare), and the protocol's JSON error
 * body on every failure.
 * @module
 */
import { SandkitError, SandkitErrorCode } from '@sandkit/core';
import { Hono } from 'hono';
import { bearerAuth } from 'hono/bearer-auth';
import { HTTPException } from 'hono/http-exception';
import { protocolVersion, type SandboxCreated, type ServerVersion } from '../http/transport/protocol.js';
import { badRequest, toProtocolError } from './serve-errors.js';
import { execRoute } from './serve-exec-route.js';
import { readFileRoute, writeFileRoute } from './serve-file-routes.js';
import type { ServeSandboxes } from './serve-sandboxes.js';

/** Version answered by `GET /v1/version`. */
export const serveVersion = '0.1.0';

/** Builds the app over `sandboxes`; `token` undefined means auth was explicitly disabled. */
export function createServeApp(sandboxes: ServeSandboxes, token: string | undefined): Hono {
  const app = new Hono();
  app.get('/health', (c) => c.json({ status: 'ok' }));
  if (token !== undefined) {
    const refusal = (message: string) => ({
      error: { name: 'SandboxError', code: 'unauthorized', message },
    });
    app.use(
      '/v1/*',
      bearerAuth({
        token,
        noAuthenticationHeader: {
          message: refusal('this server needs a bearer token: send Authorization: Bearer <token>'),
        },
        invalidAuthenticationHeader: {
          message: refusal('the Authorization header is not of the form Bearer <token>'),
        },
        invalidToken: {
          message: refusal('the bearer token is wrong; use the token the server was started with'),
        },
      }),
    );
  }
  app.get('/v1/version', (c) =>
    c.json({
      name: 'sandkit-serve',
      version: serveVersion,
      protocol: protocolVersion,
    } satisfies ServerVersion),
  );
  app.post('/v1/sandboxes', async (c) => {
    const { handle } = await sandboxes.create();
    return c.json({ id: handle.id, workdir: handle.workdir } satisfies SandboxCreated, 201);
  });
  app.delete('/v1/sandboxes/:id', async (c) => {
    await sandboxes.destroy(c.req.param('id'));
    return c.body(null, 204);
  });
  app.post('/v1/sandboxes/:id/exec', (c) => execRoute(c, sandboxes.get(c.req.param('id'))));
  app.post('/v1/sandboxes/:id/exec/:execId/abort', (c) => {
    if (!sandboxes.get(c.req.param('id')).execs.abort(c.req.param('execId')))
      throw unknownRun(c.req.param('execId'));
    return c.body(null, 204);
  });
  app.get('/v1/sandboxes/:id/exec/:execId', async (c) => {
    const outcome = await sandboxes.get(c.req.param('id')).execs.take(c.req.param('execId'));
    if (outcome === undefined) throw unknownRun(c.req.param('execId'));
    if ('result' in outcome) return c.json({ result: outcome.result });
    const { status, body } = toProtocolError(outcome.error);
    return c.json(body, status as 400);
  });
  app.get('/v1/sandboxes/:id/files', (c) => readFileRoute(c, sandboxes.get(c.req.param('id'))));
  app.put('/v1/sandboxes/:id/files', (c) => writeFileRoute(c, sandboxes.get(c.req.param('id'))));
  app.notFound((c) =>
    c.json(
      toProtocolError(
        badRequest(
          `no route ${c.req.method} ${c.req.path} in protocol ${protocolVersion}; see docs/http-protocol.md`,
        ),
      ).body,
      404,
    ),
  );
  app.onError((error, c) => {
    if (error instanceof HTTPException) return error.getResponse();
    const { status, body } = toProtocolError(error);
    return c.json(body, status as 400);
  });
  return app;
}

function unknownRun(execId: string): SandkitError {
  return new SandkitError({
    code: SandkitErrorCode.unknownProcess,
    message: `no command of exec id ${execId} is known here (it ended and its result was fetched, or it never ran)`,
  });
}
