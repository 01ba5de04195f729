/**
 * Conformance cases for `readFile` / `writeFile`: binary safety, parents created, mode kept,
 * atomic replace, awkward names, a 10 MB round trip, and typed errors.
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
