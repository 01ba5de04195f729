import { mkdir, realpath, rm, symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { SandkitErrorCode, ToolError } from '@sandkit/core';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeCodingToolOptions, type ToolContext } from '../../src/workspace/coding-tool-options.js';
import { inspectToolPath, isInside, resolveToolPath } from '../../src/workspace/resolve-path.js';
import { createFileToolsSandbox, type FileToolsSandbox } from '../file-tools-sandbox.js';

let box: FileToolsSandbox;
let outside: string;
let context: ToolContext;
beforeAll(async () => {
  box = await createFileToolsSandbox();
  outside = `${box.root}-outside`;
  await mkdir(join(outside, 'sub'), { recursive: true });
  await box.put('a/b/file.txt', 'x');
  await symlink('a', join(box.root, 'in-link'));
  await symlink(outside, join(box.root, 'out-link'));
  await symlink('..', join(box.root, 'a/up'));
  await symlink('../..', join(box.root, 'a/esc'));
  await symlink('/etc', join(box.root, 'a/b/etc-link'));
  await symlink(join(box.root, 'a/b'), join(box.root, 'abs-in'));
  context = normalizeCodingToolOptions(box.handle.client, { root: box.root });
});
afterAll(async () => {
  await box.handle.destroy();
  await rm(outside, { recursive: true, force: true });
});

const escaping = ['..', 'out-link', 'esc', 'etc-link', '/etc', '/tmp'];
const safe = ['a', 'b', '.', 'in-link', 'abs-in', 'file.txt', 'new', 'up', 'sub', 'nested dir', "it's", '-n'];

/** The real path of `path`: its deepest existing ancestor resolved by the host, plus the rest. */
async function hostRealpath(path: string): Promise<string> {
  const rest: string[] = [];
  let current = path;
  for (;;) {
    try {
      return join(await realpath(current), ...rest.reverse());
    } catch {
      rest.push(current.slice(dirname(current).length + 1));
      current = dirname(current);
    }
  }
}

describe('resolveToolPath', () => {
  it('never returns a path outside the root, whatever the segments and symlinks (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...safe, ...escaping), { minLength: 1, maxLength: 6 }),
        fc.constantFrom('', 'root', '/'),
        async (segments, prefix) => {
          const path = (prefix === 'root' ? `${box.root}/` : prefix) + segments.join('/');
          let resolved: Awaited<ReturnType<typeof resolveToolPath>>;
          try {
            resolved = await resolveToolPath(context, path);
          } catch (error) {
            expect(ToolError.isInstance(error) && error.code === SandkitErrorCode.outsideRoot).toBe(true);
            return;
          }
          expect(isInside(box.root, resolved.absolute)).toBe(true);
          expect(isInside(box.root, await hostRealpath(resolved.absolute))).toBe(true);
          expect(resolved.relative.startsWith('..')).toBe(false);
        },
      ),
      { numRuns: 60 },
    );
  }, 60_000);

  it('accepts every path built only from segments that stay inside (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...safe.filter((s) => s !== 'up')), { minLength: 1, maxLength: 5 }),
        async (segments) => {
          const resolved = await resolveToolPath(context, segments.join('/'));
          expect(isInside(box.root, resolved.absolute)).toBe(true);
        },
      ),
      { numRuns: 30 },
    );
  }, 60_000);

  describe('inspectToolPath', () => {
    it.each([
      ['a/b/file.txt', 'file', 1],
      ['in-link', 'directory', 0],
      ['a/b/new name.txt', 'missing', 0],
      // a name ending in a newline is not the name without it (`$(…)` drops trailing newlines)
      ['a/b/file.txt\n', 'missing', 0],
      ['a/b/\n', 'missing', 0],
    ])(
      'resolves %s like resolveToolPath and reports kind %s, size %d, one link',
      async (path, kind, size) => {
        const inspected = await inspectToolPath(context, path);
        const { inode, ...rest } = inspected;
        expect(rest).toEqual({ ...(await resolveToolPath(context, path)), kind, size, links: 1 });
        // a regular file also gives its device:inode (the hard-link lock's key)
        expect(inode === undefined).toBe(kind !== 'file');
        if (inode !== undefined) expect(inode).toMatch(/^\d+:\d+$/);
      },
    );

    it('refuses a symlink out of the root with outside_root', async () => {
      const error = await inspectToolPath(context, 'out-link/sub').catch((e: unknown) => e);
      expect(ToolError.isInstance(error) && error.code).toBe(SandkitErrorCode.outsideRoot);
    });
  });
});
