/**
 * Conformance cases for `readFile` / `writeFile`: binary safety, parents created, mode kept,
 * atomic replace, writes through symlinks, awkward names, a 10 MB round trip, and typed errors.
 * @module
 */
import { createHash, randomBytes } from 'node:crypto';
import { formatCommand } from '@sandkit/core';
import { describe, expect } from 'vitest';
import { type ConformanceContext, describeResult, expectSandboxError } from './conformance-context.js';

/** Registers the file cases. */
export function describeFileCases(context: ConformanceContext): void {
  const { test, scaled } = context;
  const client = () => context.client();
  const allBytes = Uint8Array.from({ length: 512 }, (_, index) => index % 256);

  describe('readFile and writeFile', () => {
    test('files.binary', 'writes and reads every byte value unchanged', async () => {
      await client().writeFile('files/all-bytes.bin', allBytes);
      expect(Buffer.from(await client().readFile('files/all-bytes.bin')).equals(Buffer.from(allBytes))).toBe(
        true,
      );
      const size = await client().exec('wc -c < files/all-bytes.bin');
      expect(size.stdout.trim()).toBe('512');
    });
    test('files.text', 'writes a string as UTF-8 and reads back bytes a command also sees', async () => {
      await client().writeFile('files/text.txt', 'héllo ✓ 😀\r\nno newline at end');
      const bytes = await client().readFile('files/text.txt');
      expect(new TextDecoder().decode(bytes)).toBe('héllo ✓ 😀\r\nno newline at end');
      const od = await client().exec('head -c 3 files/text.txt | od -An -tx1');
      expect(od.stdout.trim()).toBe('68 c3 a9');
      await client().writeFile('files/empty.txt', '');
      expect((await client().readFile('files/empty.txt')).length).toBe(0);
    });
    test('files.parents', 'creates missing parent directories', async () => {
      await client().writeFile('files/deep/er/still/file.txt', 'x');
      const result = await client().exec('cat files/deep/er/still/file.txt');
      expect(result.stdout).toBe('x');
    });
    test('files.absolute', 'accepts an absolute path under the workdir', async () => {
      const path = `${context.handle().workdir}/files/absolute.txt`;
      await client().writeFile(path, 'abs');
      expect(new TextDecoder().decode(await client().readFile('files/absolute.txt'))).toBe('abs');
    });
    test('files.keeps-mode', 'keeps the mode of an existing file and applies mode to a new one', async () => {
      await client().writeFile('files/script.sh', '#!/bin/sh\necho one\n');
      await client().exec('chmod 755 files/script.sh');
      await client().writeFile('files/script.sh', '#!/bin/sh\necho two\n');
      const mode = await client().exec('stat -c %a files/script.sh && ./files/script.sh');
      expect(mode.stdout, describeResult(mode)).toBe('755\ntwo\n');
      await client().writeFile('files/secret.txt', 's', { mode: 0o600 });
      const fresh = await client().exec('stat -c %a files/secret.txt');
      expect(fresh.stdout).toBe('600\n');
      await client().writeFile('files/plain.txt', 'p');
      const plain = await client().exec('stat -c %a files/plain.txt');
      expect(plain.stdout).toBe('644\n');
    });
    test('files.atomic', 'replaces atomically and leaves no temp file behind', async () => {
      await client().exec('mkdir -p files/atomic');
      for (let round = 0; round < 5; round++)
        await client().writeFile('files/atomic/target.txt', `round ${round}\n`);
      const listing = await client().exec('ls -A files/atomic');
      expect(listing.stdout).toBe('target.txt\n');
      const inode = await client().exec('ls -i files/atomic/target.txt');
      await client().writeFile('files/atomic/target.txt', 'replaced\n');
      const after = await client().exec(
        'ls -i files/atomic/target.txt; cat files/atomic/target.txt; ls -A files/atomic | wc -l',
      );
      const [inodeAfter, content, count] = after.stdout.split('\n');
      expect(inodeAfter?.split(' ')[0], 'a rename gives the file a new inode').not.toBe(
        inode.stdout.split(' ')[0],
      );
      expect([content, count?.trim()]).toEqual(['replaced', '1']);
    });
    test('files.names', 'handles names with spaces, newlines, quotes and non-ASCII', async () => {
      const names = [
        'with space.txt',
        'new\nline.txt',
        'it\'s "quoted".txt',
        'ünïcødé 日本 😀.txt',
        '-dash.txt',
      ];
      for (const name of names) {
        await client().writeFile(`files/names/${name}`, `content of ${name}`);
        expect(new TextDecoder().decode(await client().readFile(`files/names/${name}`))).toBe(
          `content of ${name}`,
        );
        const cat = await client().exec(formatCommand(['cat', '--', `files/names/${name}`]));
        expect(cat.stdout, describeResult(cat)).toBe(`content of ${name}`);
      }
      const count = await client().exec("find files/names -type f -print0 | tr -cd '\\0' | wc -c");
      expect(count.stdout.trim()).toBe(String(names.length));
      await client().exec(
        formatCommand(['sh', '-c', 'printf made > "$1"', 'sh', 'files/names/made by sh ✓.txt']),
      );
      expect(new TextDecoder().decode(await client().readFile('files/names/made by sh ✓.txt'))).toBe('made');
    });
    test(
      'files.big-binary',
      'round-trips 10 MB of random bytes',
      async () => {
        const data = new Uint8Array(randomBytes(10 * 1024 * 1024));
        await client().writeFile('files/big.bin', data);
        const back = await client().readFile('files/big.bin');
        expect(back.length).toBe(data.length);
        expect(Buffer.from(back).equals(Buffer.from(data))).toBe(true);
        const sum = await client().exec('sha256sum files/big.bin', { timeoutMs: scaled(30_000) });
        expect(sum.stdout.split(' ')[0]).toBe(createHash('sha256').update(data).digest('hex'));
      },
      60_000,
    );
    test(
      'files.symlink',
      'writes through a symlink: the link stays, its target gets the bytes and keeps its mode',
      async () => {
        const workdir = context.handle().workdir;
        const large = new Uint8Array(randomBytes(200 * 1024));
        await client().exec(
          [
            'mkdir -p files/links/sub && printf old > files/links/real.txt && chmod 750 files/links/real.txt',
            'printf old > files/links/sub/deep.txt && chmod 600 files/links/sub/deep.txt',
            'cd files/links && ln -s real.txt rel && ln -s sub/deep.txt into-sub',
            `ln -s ${formatCommand([`${workdir}/files/links/rel`])} abs-chain`,
            'ln -s made.txt dangling && ln -s new-dir/made.txt dangling-deep && ln -s sub to-dir',
          ].join(' && '),
        );
        await client().writeFile('files/links/rel', 'small through rel');
        await client().writeFile(`${workdir}/files/links/abs-chain`, 'small through a chain');
        await client().writeFile('files/links/into-sub', large);
        await client().writeFile('files/links/dangling', 'made through a dangling link');
        await client().writeFile('files/links/dangling-deep', large);
        const state = await client().exec(
          [
            'cd files/links',
            "for l in rel abs-chain into-sub dangling dangling-deep to-dir; do test -L $l && printf '%s ' $l; done; echo",
            "stat -c '%a %s' real.txt sub/deep.txt made.txt new-dir/made.txt",
            "find . -name '*.sandkit-tmp' -o -name '.sandkit-*' | wc -l",
          ].join('\n'),
        );
        expect(state.stdout, describeResult(state)).toBe(
          [
            'rel abs-chain into-sub dangling dangling-deep to-dir ',
            '750 21',
            `600 ${large.length}`,
            '644 28',
            `644 ${large.length}`,
            '0',
            '',
          ].join('\n'),
        );
        expect(new TextDecoder().decode(await client().readFile('files/links/real.txt'))).toBe(
          'small through a chain',
        );
        expect(
          Buffer.from(await client().readFile('files/links/sub/deep.txt')).equals(Buffer.from(large)),
        ).toBe(true);
        await expectSandboxError(client().writeFile('files/links/to-dir', 'x'), 'is_directory');
        await expectSandboxError(client().writeFile('files/links/to-dir', large), 'is_directory');
        await client().exec('cd files/links && ln -s loop-b loop-a && ln -s loop-a loop-b');
        await expectSandboxError(client().writeFile('files/links/loop-a', 'x'), 'refused');
        await expectSandboxError(client().writeFile('files/links/loop-b', large), 'refused');
        const loops = await client().exec(
          "cd files/links && test -L loop-a && test -L loop-b && find . -name '*.sandkit-tmp' -o -name '.sandkit-*' | wc -l",
        );
        expect(loops.stdout, describeResult(loops)).toBe('0\n');
      },
      60_000,
    );
    test(
      'files.parent-is-file',
      'throws SandboxError not_directory when a parent or a grandparent of the path is a file',
      async () => {
        const large = new Uint8Array(randomBytes(200 * 1024));
        await client().exec('mkdir -p files/parent && printf x > files/parent/file');
        for (const data of ['small', large]) {
          await expectSandboxError(client().writeFile('files/parent/file/child', data), 'not_directory');
          await expectSandboxError(client().writeFile('files/parent/file/x/child', data), 'not_directory');
        }
        const left = await client().exec('ls -A files/parent; cat files/parent/file');
        expect(left.stdout, describeResult(left)).toBe('file\nx');
      },
    );
    test(
      'files.bad-path',
      'rejects an empty path, a NUL byte or a lone surrogate with SandkitError invalid_option, writing nothing',
      async () => {
        await client().exec('rm -rf files/bad && mkdir -p files/bad');
        for (const path of ['', 'files/bad/a\0b', 'files/bad/a\uD800b', 'files/bad/\uDC00/x.bin']) {
          for (const call of [
            () => client().readFile(path),
            () => client().writeFile(path, 'x'),
            () => client().writeFile(path, new Uint8Array(9 * 2 ** 20)),
          ]) {
            const outcome = await call().then(
              () => 'resolved',
              (error: { code?: string; message?: string }) => `${error.code}: ${error.message}`,
            );
            expect(outcome, JSON.stringify(path)).toMatch(/^invalid_option: path /);
          }
        }
        const left = await client().exec('ls -A files/bad');
        expect(left.stdout, describeResult(left)).toBe('');
      },
    );
    test(
      'files.symlink-loop',
      'refuses to read or write through a symlink loop with SandboxError refused (a missing file it is not)',
      async () => {
        await client().exec(
          'rm -rf files/loop && mkdir -p files/loop && ln -s l2 files/loop/l1 && ln -s l1 files/loop/l2',
        );
        await expectSandboxError(client().readFile('files/loop/l1'), 'refused');
        await expectSandboxError(client().writeFile('files/loop/l1', 'x'), 'refused');
        const left = await client().exec('ls -A files/loop');
        expect(left.stdout, describeResult(left)).toBe('l1\nl2\n');
      },
    );
    test('files.missing', 'throws SandboxError file_not_found for a missing file', async () => {
      await expectSandboxError(client().readFile('files/no-such-file.txt'), 'file_not_found');
      await expectSandboxError(client().readFile('no-such-dir/file.txt'), 'file_not_found');
    });
    test(
      'files.directory',
      'throws SandboxError is_directory when reading or replacing a directory',
      async () => {
        await client().exec('mkdir -p files/a-directory');
        await expectSandboxError(client().readFile('files/a-directory'), 'is_directory');
        await expectSandboxError(client().writeFile('files/a-directory', 'x'), 'is_directory');
      },
    );
  });
}
