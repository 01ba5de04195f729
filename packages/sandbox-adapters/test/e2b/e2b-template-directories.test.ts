/**
 * Templates of the E2B API fake with their own directories and default user (what
 * `sandkit eval --sandbox e2b` needs to run in place at /testbed): each sandbox gets a private
 * copy, seen the same way by commands (bind mount in a mount namespace) and by file calls.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createE2BSandboxAdapter } from '../../src/e2b/index.js';
import { type E2BApiFake, startE2BApiFake } from '../../src/e2b-stand-in/index.js';
import { fakeApiKey } from './e2b-api-fake-adapter.js';

/** Template directories need root and mount namespaces (`unshare --mount`). */
const asRoot = process.getuid?.() === 0 && spawnSync('unshare', ['--mount', '--', 'true']).status === 0;
let fake: E2BApiFake;
let source: string;
/** Where sandboxes see the template's directory (made on the host as an empty mount point). */
const mountPoint = join(tmpdir(), `sandkit-template-mount-${process.pid}`);

beforeAll(async () => {
  if (!asRoot) return;
  source = await mkdtemp(join(tmpdir(), 'sandkit-e2b-template-'));
  await mkdir(join(source, 'pkg'));
  await writeFile(join(source, 'pkg', 'mod.py'), 'VALUE = 1\n');
  fake = await startE2BApiFake({
    apiKey: fakeApiKey,
    templates: {
      base: {},
      'with-testbed': { user: 'root', directories: { '/home/user': null, [mountPoint]: source } },
    },
  });
});
afterAll(async () => {
  await fake?.close();
  if (source) await rm(source, { recursive: true, force: true });
  await rm(mountPoint, { recursive: true, force: true });
});

const adapterFor = (template: string) =>
  createE2BSandboxAdapter({ apiKey: fakeApiKey, apiUrl: fake.url, sandboxUrl: fake.url, template });

describe.skipIf(!asRoot)('startE2BApiFake templates with directories', () => {
  describe('when two sandboxes of the template change their copy', () => {
    it('gives each its own copy, the same to commands and file calls, and leaves the source alone', async () => {
      const adapter = adapterFor('with-testbed');
      const [one, two] = await Promise.all([adapter.create(), adapter.create()]);
      try {
        const path = `${mountPoint}/pkg/mod.py`;
        expect(new TextDecoder().decode(await one.client.readFile(path))).toBe('VALUE = 1\n');
        await one.client.writeFile(path, 'VALUE = 2\n');
        expect((await one.client.exec(`cat ${path}`)).stdout).toBe('VALUE = 2\n');
        await two.client.exec(`echo 'VALUE = 3' > ${path}`);
        expect(new TextDecoder().decode(await two.client.readFile(path))).toBe('VALUE = 3\n');
        expect((await one.client.exec(`cat ${path}`)).stdout).toBe('VALUE = 2\n');
        expect(await readFile(join(source, 'pkg', 'mod.py'), 'utf8')).toBe('VALUE = 1\n');
        // the home is private too: a file written in one sandbox's home is not in the other's
        await one.client.writeFile('/home/user/only-one.txt', 'x');
        expect((await two.client.exec('ls -A /home/user')).stdout).toBe('');
        expect((await one.client.exec('id -un')).stdout).toBe('root\n');
      } finally {
        await Promise.all([one.destroy(), two.destroy()]);
      }
    });
  });

  describe('when the template has no directories', () => {
    it("runs on the host's file system as the default user", async () => {
      const handle = await adapterFor('base').create();
      try {
        expect((await handle.client.exec('id -un')).stdout).toBe('user\n');
        expect((await handle.client.exec(`ls -A ${mountPoint}`)).stdout).toBe('');
      } finally {
        await handle.destroy();
      }
    });
  });
});
