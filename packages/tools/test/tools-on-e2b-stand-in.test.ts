/**
 * R16 on the E2B adapter, through the real `e2b` SDK against the envd stand-in (real processes on
 * this host): the hard-link write uses only the contract's writeFile and exec, so it holds there too.
 */
import { execFileSync } from 'node:child_process';
import type { SandboxHandle } from '@sandkit/core';
import { createE2BSandboxAdapter } from '@sandkit/sandbox-adapters/e2b';
import { type E2BStandIn, startE2BStandIn } from '@sandkit/sandbox-adapters/e2b-stand-in';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCodingTools } from '../src/create-coding-tools.js';

let standIn: E2BStandIn;
let sandbox: SandboxHandle;
let call: (name: string, input: Record<string, unknown>) => Promise<Record<string, unknown>>;
beforeAll(async () => {
  standIn = await startE2BStandIn();
  sandbox = await createE2BSandboxAdapter({
    debug: true,
    sandboxUrl: standIn.url,
    workdir: standIn.root,
  }).create();
  const tools = createCodingTools(sandbox.client, { root: sandbox.workdir });
  call = async (name, input) =>
    (await tools.find((tool) => tool.name === name)!.call(input)) as Record<string, unknown>;
}, 60_000);
afterAll(async () => {
  await sandbox?.destroy();
  await standIn?.close();
});

describe('the coding tools on the E2B adapter (stand-in)', () => {
  it('R16: edit_file and write_file through a hard link change every name of the file', async () => {
    await sandbox.client.exec("printf 'v=0\\n' > h.txt && ln h.txt h2.txt");
    const edited = await call('edit_file', { path: 'h2.txt', edits: [{ oldText: 'v=0', newText: 'v=1' }] });
    expect(edited.notice).toContain('2 hard links');
    await call('write_file', { path: 'h2.txt', content: 'v=2\n' });
    const after = execFileSync('sh', ['-c', "cat h.txt; stat -c '%h' h.txt; ls -a"], { cwd: standIn.root });
    expect(after.toString()).toBe('v=2\n2\n.\n..\nh.txt\nh2.txt\n');
  });
});
