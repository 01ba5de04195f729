// dockerode 4 (the peer range's other major): the Docker adapter against DOCKER_HOST.
import assert from 'node:assert/strict';
import { createDockerSandboxAdapter } from '@sandkit/sandbox-adapters/docker';
const sandbox = await createDockerSandboxAdapter({ image: 'localhost/sandkit-sandbox:bookworm' }).create();
try {
  const r = await sandbox.client.exec('echo hi; echo err >&2; exit 3');
  assert.deepEqual([r.exitCode, r.stdout, r.stderr], [3, 'hi\n', 'err\n']);
  const t = await sandbox.client.exec('sleep 30', { timeoutMs: 500 });
  assert.equal(t.timedOut, true);
  await sandbox.client.writeFile(`${sandbox.workdir}/f.txt`, 'data');
  assert.equal(Buffer.from(await sandbox.client.readFile(`${sandbox.workdir}/f.txt`)).toString(), 'data');
} finally {
  await sandbox.destroy();
}
console.log(
  'pack smoke: docker adapter OK with dockerode',
  (await import('dockerode/package.json', { with: { type: 'json' } })).default.version,
);
