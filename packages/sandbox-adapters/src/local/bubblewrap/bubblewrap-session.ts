/**
 * The bubblewrap side of one local sandbox: its exec server (one long-lived bwrap), the egress
 * proxy of an allowlist policy, and the protected paths bound read-only.
 *
 * bwrap binds the protected paths that exist when it starts. One that appears later (`git clone`
 * or `git init` makes `.git/hooks`) is caught before the next command: a new server starts with it
 * bound, and later commands and file operations run there. The old server is kept, with the
 * background commands it still runs, until `destroy()`; a command it runs can still write the new
 * path, which the docs say.
 * @module
 */
import { connect, type Socket } from 'node:net';
import { SandboxError, SandkitErrorCode } from '@sandkit/core';
import { type EgressProxy, startEgressProxy } from '../../network/egress-proxy.js';
import type { NormalizedNetworkPolicy } from '../../network/network-policy.js';
import { bubblewrapArgs, existingProtectedPaths } from './bubblewrap-args.js';
import type { NormalizedBubblewrapOptions } from './bubblewrap-options.js';
import { ExecServer } from './exec-server.js';

/** What {@link BubblewrapSession.start} needs. */
export interface BubblewrapSessionOptions {
  readonly options: NormalizedBubblewrapOptions;
  readonly workdir: string;
  readonly logDir: string;
  /** Absolute paths inside the workspace kept read-only. */
  readonly protectedPaths: readonly string[];
  readonly network: NormalizedNetworkPolicy;
  /** Called with each bwrap's host pid (its process group), so an exit hook can SIGKILL it. */
  readonly track: (pid: number) => void;
}

/** The proxy variables HTTP clients read (curl, pip, npm, git, Python's requests). */
function proxyEnvironment(port: number): Record<string, string> {
  const url = `http://127.0.0.1:${port}`;
  const local = 'localhost,127.0.0.1,::1';
  return {
    HTTP_PROXY: url,
    HTTPS_PROXY: url,
    http_proxy: url,
    https_proxy: url,
    NO_PROXY: local,
    no_proxy: local,
  };
}

/** One sandbox's servers and proxy. */
export class BubblewrapSession {
  private current: Promise<ExecServer>;
  private bound: string;
  private readonly retired: ExecServer[] = [];
  /** Variables every command gets (the proxy's under an allowlist). */
  env: Record<string, string> = {};

  private constructor(
    private readonly setup: BubblewrapSessionOptions,
    private readonly proxy: EgressProxy | undefined,
  ) {
    this.bound = existingProtectedPaths(setup.protectedPaths).join('\0');
    this.current = this.launch();
  }

  /**
   * Starts the proxy (for an allowlist) and the first server.
   * @throws SandboxError `sandbox_start_failed` when bwrap or the proxy cannot start.
   */
  static async start(setup: BubblewrapSessionOptions): Promise<BubblewrapSession> {
    const proxy =
      setup.network.kind === 'allow'
        ? await startEgressProxy(setup.network, { host: '127.0.0.1' })
        : undefined;
    const session = new BubblewrapSession(setup, proxy);
    try {
      await session.current;
    } catch (error) {
      await proxy?.close();
      throw error;
    }
    return session;
  }

  /** The server for the next operation; a new one when a protected path appeared since the last. */
  server(): Promise<ExecServer> {
    const now = existingProtectedPaths(this.setup.protectedPaths).join('\0');
    if (now !== this.bound) {
      this.bound = now;
      const previous = this.current;
      this.current = previous.then((old) => {
        this.retired.push(old);
        return this.launch();
      });
    }
    return this.current;
  }

  /** Ends every server (the kernel kills what ran in them) and the proxy. */
  async close(): Promise<void> {
    const servers = [...this.retired, await this.current.catch(() => undefined)];
    await Promise.all(servers.map((server) => server?.close()));
    await this.proxy?.close();
  }

  private async launch(): Promise<ExecServer> {
    const { setup } = this;
    const args = bubblewrapArgs({
      options: setup.options,
      workdir: setup.workdir,
      logDir: setup.logDir,
      protectedPaths: setup.protectedPaths,
      shareNetwork: setup.network.kind === 'all',
      proxyDir: undefined,
    });
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? setup.workdir };
    const server = await ExecServer.start(setup.options.bwrapPath, args, env);
    if (server.pid !== undefined) setup.track(server.pid);
    if (this.proxy !== undefined) {
      relayTunnels(server, this.proxy.port);
      const bridged = await server.request({ t: 'bridge', id: 0 });
      if (bridged.t === 'error' || bridged.port === undefined) {
        await server.close();
        throw new SandboxError({
          code: SandkitErrorCode.sandboxStartFailed,
          message: `cannot bridge the sandbox to its egress proxy: ${bridged.t === 'error' ? bridged.message : 'no port'}`,
        });
      }
      this.env = proxyEnvironment(bridged.port);
    }
    return server;
  }
}

/**
 * Relays the server's tunnel connections to the egress proxy on this host's loopback (proxy-chain
 * drops connections without a remote address, so it listens on TCP, not on a Unix socket).
 */
function relayTunnels(server: ExecServer, proxyPort: number): void {
  const upstreams = new Map<number, Socket>();
  server.onTunnel = (step) => {
    if (step.op === 'open') {
      const upstream = connect(proxyPort, '127.0.0.1');
      upstreams.set(step.cid, upstream);
      upstream.on('data', (data) => server.sendTunnel({ t: 'tunnel', cid: step.cid, op: 'data', data }));
      upstream.on('end', () => server.sendTunnel({ t: 'tunnel', cid: step.cid, op: 'end' }));
      upstream.on('error', () => upstream.destroy());
      upstream.on('close', () => {
        if (upstreams.delete(step.cid)) server.sendTunnel({ t: 'tunnel', cid: step.cid, op: 'close' });
      });
      return;
    }
    const upstream = upstreams.get(step.cid);
    if (upstream === undefined) return;
    if (step.op === 'data' && step.data !== undefined) upstream.write(step.data);
    else if (step.op === 'end') upstream.end();
    else {
      upstreams.delete(step.cid);
      upstream.destroy();
    }
  };
}
