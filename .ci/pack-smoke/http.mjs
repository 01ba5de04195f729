// Plain-node smoke test of the HTTP remote sandbox from the installed tarballs (run by
// .ci/pack-smoke.sh): the installed `sandkit serve` bin with a token, and the
// `@sandkit/sandbox-adapters/http` adapter running a command and moving a file through it; a wrong
// token is refused; `/serve` starts in-process too.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { SandboxError } from '@sandkit/core';
import { createHttpSandboxAdapter } from '@sandkit/sandbox-adapters/http';
import { startSandboxServer } from '@sandkit/sandbox-adapters/serve';

const token = randomBytes(16).toString('hex');
const child = spawn('node_modules/.bin/sandkit', ['serve', '--port', '0'], {
  env: { ...process.env, SANDKIT_SERVE_TOKEN: token },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const url = await new Promise((resolve, reject) => {
  let seen = '';
  child.stdout.on('data', (chunk) => {
    seen += chunk;
    const found = /listening on (\S+)/.exec(seen);
    if (found) resolve(found[1]);
  });
  child.once('exit', (code) => reject(new Error(`sandkit serve exited ${code}: ${seen}`)));
});
try {
  const sandbox = await createHttpSandboxAdapter({ baseURL: url, auth: { token } }).create();
  await sandbox.client.writeFile('hello.txt', 'hello over http\n');
  const result = await sandbox.client.exec('cat hello.txt; echo err >&2; exit 3');
  assert.deepEqual([result.exitCode, result.stdout, result.stderr], [3, 'hello over http\n', 'err\n']);
  assert.equal(new TextDecoder().decode(await sandbox.client.readFile('hello.txt')), 'hello over http\n');
  await sandbox.destroy();
  const refused = await createHttpSandboxAdapter({ baseURL: url, auth: { token: 'wrong' } })
    .create()
    .catch((error) => error);
  assert.ok(
    SandboxError.isInstance(refused) && /refused the bearer token/.test(refused.message),
    String(refused),
  );
} finally {
  child.kill('SIGTERM');
}

const inProcess = await startSandboxServer({ port: 0, token });
try {
  const sandbox = await createHttpSandboxAdapter({ baseURL: inProcess.url, auth: { token } }).create();
  assert.equal((await sandbox.client.exec('echo in-process')).stdout, 'in-process\n');
  await sandbox.destroy();
} finally {
  await inProcess.close();
}
console.log('pack smoke: sandkit serve (bin and /serve) and the /http adapter OK under plain node');
