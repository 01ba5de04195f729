import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { requireOptionalPeers, SandboxError, SandkitErrorCode } from '@sandkit/core';
import { describe, expect, it } from 'vitest';

describe('requireOptionalPeers', () => {
  describe('when every package is installed', () => {
    it('resolves', async () => {
      await expect(
        requireOptionalPeers({
          subpath: 'x/y',
          packages: ['zod', 'e2b'],
          install: 'npm install zod',
          load: (name) => import(name),
        }),
      ).resolves.toBeUndefined();
    });
  });

  describe('when packages are missing', () => {
    it('throws SandboxError sandbox_unavailable naming each missing one and the install command', async () => {
      const error = await requireOptionalPeers({
        subpath: '@sandkit/sandbox-adapters/e2b',
        packages: ['sandkit-no-such-package-a', 'zod', '@sandkit-no-such/package-b'],
        install: 'npm install a b',
        load: (name) => import(name),
      }).catch((caught: unknown) => caught);
      expect(SandboxError.isInstance(error)).toBe(true);
      const sandboxError = error as SandboxError;
      expect(sandboxError.code).toBe(SandkitErrorCode.sandboxUnavailable);
      expect(sandboxError.message).toBe(
        '@sandkit/sandbox-adapters/e2b needs "sandkit-no-such-package-a" and "@sandkit-no-such/package-b" (optional peer dependencies, not installed): npm install a b',
      );
      expect(sandboxError.details).toEqual({
        missing: ['sandkit-no-such-package-a', '@sandkit-no-such/package-b'],
        install: 'npm install a b',
      });
    });
  });

  describe('when an installed module fails to load for another reason', () => {
    it('rethrows that error unchanged, even a missing import of its own', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'sandkit-peer-'));
      try {
        const broken = join(dir, 'broken.mjs');
        await writeFile(broken, "import 'sandkit-no-such-package-c';\n");
        const error = await requireOptionalPeers({
          subpath: 'x',
          packages: [pathToFileURL(broken).href],
          install: 'npm install x',
          load: (name) => import(name),
        }).catch((caught: unknown) => caught);
        expect(SandboxError.isInstance(error)).toBe(false);
        expect((error as { code?: string }).code).toBe('ERR_MODULE_NOT_FOUND');
        expect((error as Error).message).toContain("'sandkit-no-such-package-c'");
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  });
});
