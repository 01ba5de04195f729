// Lowest supported e2b and @e2b/code-interpreter: the E2B adapter against the shipped envd stand-in.
import assert from 'node:assert/strict';
import { createE2BSandboxAdapter } from '@sandkit/sandbox-adapters/e2b';
import { startE2BStandIn } from '@sandkit/sandbox-adapters/e2b-stand-in';
const standIn = await startE2BStandIn();
const sandbox = await createE2BSandboxAdapter({
  debug: true,
  sandboxUrl: standIn.url,
  workdir: standIn.root,
}).create();
try {
  const r = await sandbox.client.exec('echo hi; echo err >&2; exit 3');
  assert.deepEqual([r.exitCode, r.stdout, r.stderr], [3, 'hi\n', 'err\n']);
  const t = await sandbox.client.exec('sleep 30', { timeoutMs: 500 });
  assert.equal(t.timedOut, true);
  await sandbox.client.writeFile(`${sandbox.workdir}/f.txt`, 'data');
  assert.equal(Buffer.from(await sandbox.client.readFile(`${sandbox.workdir}/f.txt`)).toString(), 'data');
} finally {
  await sandbox.destroy();
  await standIn.close();
}
const v = (p) =>
  import(`${p}/package.json`, { with: { type: 'json' } }).then(
    (m) => m.default.version,
    () => '?',
  );
console.log(
  'pack smoke: e2b adapter OK on the stand-in with e2b',
  await v('e2b'),
  'code-interpreter',
  await v('@e2b/code-interpreter'),
);
