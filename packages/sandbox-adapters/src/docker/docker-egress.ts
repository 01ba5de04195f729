/**
 * A Docker sandbox's network under a policy. `'none'` and `'all'` are network modes (`none`,
 * `bridge`). An allowlist is an internal network of its own (no route out, no outside DNS) whose
 * only way out is the egress proxy (network/egress-proxy.ts), listening on this host at the
 * network's gateway address; the container's `HTTP_PROXY`/`HTTPS_PROXY` name it.
 *
 * The gateway is an address of this host only when the engine runs here with its bridges in this
 * network namespace (Docker Engine, rootful Podman). Elsewhere (a remote engine, rootless Podman)
 * the proxy cannot listen there, and the policy is refused with `capability_unsupported`.
 * @module
 */
import { createServer } from 'node:net';
import { SandkitError, SandkitErrorCode } from '@sandkit/core';
import { type EgressProxy, startEgressProxy } from '../network/egress-proxy.js';
import { type NormalizedNetworkPolicy, networkPolicyUnsupported } from '../network/network-policy.js';
import type { Docker } from './transport/docker-client.js';
import { engineError } from './transport/docker-errors.js';

/** The network of a Docker sandbox: a network mode or name, or an allowlist. */
export type DockerNetwork =
  | { readonly kind: 'mode'; readonly mode: string }
  | { readonly kind: 'allow'; readonly policy: Extract<NormalizedNetworkPolicy, { kind: 'allow' }> };

/** What a container is created with, and what to undo when it is removed. */
export interface DockerEgress {
  readonly networkMode: string;
  /**
   * Resolvers for the container (`HostConfig.Dns`): under an allowlist, its own loopback, where
   * nothing answers, so names resolve only through the proxy (Podman's aardvark-dns forwards
   * queries out of internal networks). A command that sends UDP to the gateway's port 53 itself
   * still reaches that resolver on Podman: the docs say so.
   */
  readonly dns: string[] | undefined;
  readonly env: Record<string, string>;
  /**
   * Starts the proxy once the container runs (the engine brings the network's bridge, and so its
   * gateway address, up with the first container).
   * @throws SandkitError `capability_unsupported` when the gateway is not an address of this host.
   */
  started(): Promise<void>;
  /** Stops the proxy and removes the network (after the container is gone). */
  close(): Promise<void>;
}

/** The label that marks a sandbox's egress network with the sandbox's id. */
export const egressNetworkLabel = 'sandkit.egress-for';

/**
 * Prepares the network of sandbox `id`.
 * @throws SandkitError `capability_unsupported` when the engine's gateway is not an address of this
 *   host (the proxy cannot listen there).
 * @throws SandboxError `sandbox_start_failed` when the network cannot be created.
 */
export async function prepareDockerEgress(
  docker: Docker,
  network: DockerNetwork,
  id: string,
): Promise<DockerEgress> {
  if (network.kind === 'mode') {
    return {
      networkMode: network.mode,
      dns: undefined,
      env: {},
      started: async () => undefined,
      close: async () => undefined,
    };
  }
  const name = `sandkit-egress-${id.replace(/^docker-/, '').slice(0, 12)}`;
  let created: Docker.Network;
  let gateway: string | undefined;
  try {
    created = await docker.createNetwork({
      Name: name,
      Internal: true,
      Labels: { [egressNetworkLabel]: id },
    });
    const info = await created.inspect();
    gateway = info.IPAM?.Config?.find((config: { Gateway?: string }) => config.Gateway)?.Gateway;
  } catch (error) {
    throw engineError(error, `cannot create the egress network ${name}`, SandkitErrorCode.sandboxStartFailed);
  }
  const removeNetwork = (): Promise<unknown> => created.remove().catch(() => undefined);
  if (gateway === undefined) {
    await removeNetwork();
    throw networkPolicyUnsupported(
      'docker',
      network.policy,
      `the engine gave network ${name} no gateway address`,
    );
  }
  const port = await freePort();
  let proxy: EgressProxy | undefined;
  const url = `http://${gateway}:${port}`;
  const local = 'localhost,127.0.0.1,::1';
  return {
    networkMode: name,
    dns: ['127.0.0.1'],
    env: {
      HTTP_PROXY: url,
      HTTPS_PROXY: url,
      http_proxy: url,
      https_proxy: url,
      NO_PROXY: local,
      no_proxy: local,
    },
    async started() {
      try {
        proxy = await startEgressProxy(network.policy, { host: gateway, port });
      } catch (cause) {
        const refused = networkPolicyUnsupported(
          'docker',
          network.policy,
          `its egress proxy must listen on the internal network's gateway (${gateway}), which is not an address of this host (${(cause as Error).message}); run the engine on this host (Docker Engine or rootful Podman), or use network: 'none'`,
        );
        throw new SandkitError({ code: refused.code, message: refused.message, cause, details: { gateway } });
      }
    },
    async close() {
      await proxy?.close();
      await removeNetwork();
    },
  };
}

/**
 * A TCP port free on this host now, for the proxy that starts after the container (whose
 * environment must name it first). Another process could take it in between; `started()` then
 * fails and the sandbox is not made.
 */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((done, fail) => probe.once('error', fail).listen(0, '127.0.0.1', done));
  const address = probe.address();
  await new Promise((done) => probe.close(done));
  return typeof address === 'object' && address !== null ? address.port : 0;
}
