/**
 * The egress proxy that enforces a network allowlist: an HTTP proxy (plain requests and `CONNECT`
 * tunnels for HTTPS and any TCP) that lets through only the destinations the policy allows and
 * answers every other with `403` naming the host and the policy. The sandbox reaches it through
 * `HTTP_PROXY` / `HTTPS_PROXY`; its own network namespace (bubblewrap) or an internal network
 * (Docker) has no other way out.
 *
 * The proxy itself is proxy-chain (Apify's, well kept, CONNECT and plain HTTP forwarding); this
 * module only decides who passes and where the proxy listens.
 * @module
 */
import { SandboxError, SandkitErrorCode } from '@sandkit/core';
import { RequestError, Server } from 'proxy-chain';
import { destinationMatcher } from './allows-destination.js';
import type { NormalizedNetworkPolicy } from './network-policy.js';

/**
 * Where {@link startEgressProxy} listens: a TCP address (`port` 0 or absent: any free port).
 * Not a Unix socket: proxy-chain drops connections that have no remote address.
 */
export interface EgressProxyListen {
  host: string;
  port?: number;
}

/** A running egress proxy. */
export interface EgressProxy {
  /** The TCP port it listens on. */
  readonly port: number;
  /** Destinations refused so far, `host:port` each, oldest first (at most 100 kept). */
  readonly refused: readonly string[];
  /** Stops listening and ends open tunnels. */
  close(): Promise<void>;
}

/** The response header that carries the refusal's reason (curl -v, a browser, a log show it). */
export const refusalHeader = 'X-Sandkit-Network-Policy';

/**
 * Starts an egress proxy for an allowlist `policy`.
 * @throws SandboxError `sandbox_start_failed` when it cannot listen (socket path taken, port in use).
 */
export async function startEgressProxy(
  policy: Extract<NormalizedNetworkPolicy, { kind: 'allow' }>,
  listen: EgressProxyListen,
): Promise<EgressProxy> {
  const allows = destinationMatcher(policy);
  const refused: string[] = [];
  const shown = policy.entries.join(', ');
  const server = new Server({
    port: 0,
    prepareRequestFunction: ({ hostname, port }) => {
      if (allows(hostname)) return {};
      if (refused.push(`${hostname}:${port}`) > 100) refused.shift();
      const reason = `sandkit network policy: ${hostname} is not on the allowlist (${shown}); the request was not sent`;
      throw new RequestError(reason, 403, { [refusalHeader]: reason });
    },
  });
  try {
    await new Promise<void>((done, fail) => {
      server.server.once('error', fail);
      const ready = (): void => {
        server.server.off('error', fail);
        done();
      };
      server.server.listen(listen.port ?? 0, listen.host, ready);
    });
  } catch (cause) {
    throw new SandboxError({
      code: SandkitErrorCode.sandboxStartFailed,
      message: `cannot start the egress proxy on ${JSON.stringify(listen)}: ${(cause as Error).message}`,
      cause,
      details: { listen },
    });
  }
  const address = server.server.address();
  return {
    port: typeof address === 'object' && address !== null ? address.port : 0,
    refused,
    async close() {
      await server.close(true);
    },
  };
}
