/**
 * The exec server that runs inside a bubblewrap sandbox: one long-lived `node` process per sandbox,
 * started by bwrap, which spawns each command, does each file operation and bridges the egress proxy,
 * all inside the sandbox's mount, PID and network namespaces.
 *
 * Why a server and not one `bwrap` per command: a bwrap start (namespaces, mounts, a fresh /proc)
 * costs ~25 ms here, several times a plain `sh -c`; one server pays it once per sandbox, and each
 * command then costs a message on Node's IPC channel and a spawn (bench/bubblewrap-exec.bench.ts).
 *
 * {@link execServerMain} is shipped as source text (`node -e`), so it must be self-contained: no
 * imports, no closure over this module, only `require` of Node built-ins. Messages are Node IPC
 * messages with `serialization: 'advanced'` (structured clone: Uint8Array crosses as bytes).
 * @module
 */

/** A request from the host (see exec-server.ts for each field's meaning). */
export type ExecServerRequest =
  | {
      t: 'spawn';
      id: number;
      shell: string;
      command: string;
      cwd: string;
      env: Record<string, string>;
      stdout: string;
      stderr: string;
      stdin: Uint8Array | string | undefined;
    }
  | { t: 'kill'; id: number; pgid: number; graceMs: number }
  | { t: 'read'; id: number; path: string }
  | {
      t: 'write';
      id: number;
      path: string;
      data: Uint8Array | string;
      mode: number | undefined;
      maxLinks: number;
    }
  | { t: 'bridge'; id: number }
  | ExecServerTunnel;

/**
 * One step of a connection relayed between the sandbox's loopback and the host's egress proxy,
 * either way: the sandbox cannot open a Unix socket (seccomp-filter.ts) and has no network of its
 * own, so its proxy connections travel over the IPC channel.
 */
export type ExecServerTunnel = {
  t: 'tunnel';
  cid: number;
  op: 'open' | 'data' | 'end' | 'close';
  data?: Uint8Array;
};

/** A reply to the request with the same `id`; `exit` follows `started` when the shell ends. */
export type ExecServerReply =
  | { t: 'started'; id: number; pid: number }
  | { t: 'exit'; id: number; code: number | null; signal: string | null }
  | { t: 'ok'; id: number; data?: Uint8Array; port?: number }
  | { t: 'error'; id: number; code: string; message: string; path?: string }
  | ExecServerTunnel;

/** The server's entry point; runs only inside the sandbox, as `node -e "(<source>)()"`. */
export function execServerMain(): void {
  const childProcess = require('node:child_process') as typeof import('node:child_process');
  const fs = require('node:fs') as typeof import('node:fs');
  const net = require('node:net') as typeof import('node:net');
  const pathModule = require('node:path') as typeof import('node:path');
  const crypto = require('node:crypto') as typeof import('node:crypto');
  const send = (reply: ExecServerReply): void => {
    process.send?.(reply);
  };
  const fail = (id: number, error: unknown, path?: string): void => {
    const e = error as NodeJS.ErrnoException;
    send({ t: 'error', id, code: e.code ?? 'EUNKNOWN', message: e.message, path });
  };
  const groupAlive = (pgid: number): boolean => {
    try {
      process.kill(-pgid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const signalGroup = (pgid: number, signal: NodeJS.Signals): void => {
    try {
      process.kill(-pgid, signal);
    } catch {
      // the group is gone
    }
  };
  const spawnCommand = (m: Extract<ExecServerRequest, { t: 'spawn' }>): void => {
    let info: import('node:fs').Stats | undefined;
    try {
      info = fs.statSync(m.cwd);
    } catch {
      info = undefined;
    }
    if (!info?.isDirectory()) {
      send({ t: 'error', id: m.id, code: 'ENOENT', message: 'no such directory', path: m.cwd });
      return;
    }
    let out: number;
    let err: number;
    try {
      out = fs.openSync(m.stdout, 'a');
      err = fs.openSync(m.stderr, 'a');
    } catch (error) {
      fail(m.id, error, m.stdout);
      return;
    }
    const child = childProcess.spawn(m.shell, ['-c', m.command], {
      cwd: m.cwd,
      env: m.env,
      detached: true,
      stdio: [m.stdin === undefined ? 'ignore' : 'pipe', out, err],
    });
    fs.closeSync(out);
    fs.closeSync(err);
    child.on('error', (error) => fail(m.id, error, m.shell));
    child.on('exit', (code, signal) => send({ t: 'exit', id: m.id, code, signal }));
    if (child.pid !== undefined) send({ t: 'started', id: m.id, pid: child.pid });
    if (child.stdin) {
      child.stdin.on('error', () => undefined); // EPIPE when the command does not read all its input
      child.stdin.end(m.stdin);
    }
  };
  // SIGTERM the group, SIGKILL it after the grace, reply once no process of it is left.
  const killGroup = (m: Extract<ExecServerRequest, { t: 'kill' }>): void => {
    signalGroup(m.pgid, 'SIGTERM');
    const deadline = Date.now() + m.graceMs;
    const poll = (): void => {
      // A group that outlives its SIGKILL by a second holds only zombies (or uninterruptible
      // sleepers): nothing more a signal can do, so answer rather than wait on.
      if (!groupAlive(m.pgid) || Date.now() >= deadline + 1000) {
        send({ t: 'ok', id: m.id });
        return;
      }
      if (Date.now() >= deadline) signalGroup(m.pgid, 'SIGKILL');
      setTimeout(poll, 10);
    };
    poll();
  };
  const readFile = (m: Extract<ExecServerRequest, { t: 'read' }>): void => {
    fs.stat(m.path, (statError, info) => {
      if (statError) return fail(m.id, statError, m.path);
      if (!info.isFile() && !info.isDirectory())
        return send({ t: 'error', id: m.id, code: 'ESPECIAL', message: 'not a regular file', path: m.path });
      fs.readFile(m.path, (error, data) => {
        if (error) return fail(m.id, error, m.path);
        send({ t: 'ok', id: m.id, data: new Uint8Array(data.buffer, data.byteOffset, data.length) });
      });
    });
  };
  // The same steps as local-files.ts writeLocalFile: follow links at the end, keep the mode,
  // write a temp file beside the target and rename it over.
  const writeFile = (m: Extract<ExecServerRequest, { t: 'write' }>): void => {
    let full = m.path;
    try {
      for (let hop = 0; ; hop++) {
        if (hop > m.maxLinks) {
          send({ t: 'error', id: m.id, code: 'ELOOP', message: 'too many links', path: m.path });
          return;
        }
        let target: string;
        try {
          target = fs.readlinkSync(full);
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === 'EINVAL' || code === 'ENOENT') break;
          throw error;
        }
        full = pathModule.isAbsolute(target) ? target : `${pathModule.dirname(full)}/${target}`;
      }
      let existing: import('node:fs').Stats | undefined;
      try {
        existing = fs.lstatSync(full);
      } catch {
        existing = undefined;
      }
      if (existing?.isDirectory()) {
        send({ t: 'error', id: m.id, code: 'EISDIR', message: 'is a directory', path: full });
        return;
      }
      const mode = m.mode ?? (existing ? existing.mode & 0o7777 : 0o644);
      const name = pathModule.basename(full).slice(0, 40);
      const temp = `${pathModule.dirname(full)}/.${name}.${crypto.randomBytes(6).toString('hex')}.sandkit-tmp`;
      fs.mkdirSync(pathModule.dirname(full), { recursive: true });
      try {
        fs.writeFileSync(temp, m.data, { mode });
        fs.chmodSync(temp, mode);
        fs.renameSync(temp, full);
      } catch (error) {
        fs.rmSync(temp, { force: true });
        throw error;
      }
      send({ t: 'ok', id: m.id });
    } catch (error) {
      fail(m.id, error, full);
    }
  };
  // A TCP port on the sandbox's own loopback whose connections the host relays to its egress proxy.
  const tunnels = new Map<number, import('node:net').Socket>();
  let lastTunnel = 0;
  const bridge = (m: Extract<ExecServerRequest, { t: 'bridge' }>): void => {
    const server = net.createServer((client) => {
      const cid = ++lastTunnel;
      tunnels.set(cid, client);
      send({ t: 'tunnel', cid, op: 'open' });
      client.on('data', (data) => send({ t: 'tunnel', cid, op: 'data', data }));
      client.on('end', () => send({ t: 'tunnel', cid, op: 'end' }));
      client.on('error', () => client.destroy());
      client.on('close', () => {
        if (tunnels.delete(cid)) send({ t: 'tunnel', cid, op: 'close' });
      });
    });
    server.on('error', (error) => fail(m.id, error));
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      send({ t: 'ok', id: m.id, port: typeof address === 'object' && address ? address.port : 0 });
    });
  };
  const tunnel = (m: ExecServerTunnel): void => {
    const client = tunnels.get(m.cid);
    if (client === undefined) return;
    if (m.op === 'data' && m.data !== undefined) client.write(m.data);
    else if (m.op === 'end') client.end();
    else if (m.op === 'close') {
      tunnels.delete(m.cid);
      client.destroy();
    }
  };
  process.on('message', (message: ExecServerRequest) => {
    if (message.t === 'spawn') spawnCommand(message);
    else if (message.t === 'kill') killGroup(message);
    else if (message.t === 'read') readFile(message);
    else if (message.t === 'write') writeFile(message);
    else if (message.t === 'bridge') bridge(message);
    else if (message.t === 'tunnel') tunnel(message);
  });
  // The host went away: end with it (the PID namespace takes every command along).
  process.on('disconnect', () => process.exit(0));
}
