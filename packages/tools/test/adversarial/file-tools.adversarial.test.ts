/**
 * Hostile and confused calls to read_file, write_file, edit_file and delete_file, made through
 * executeToolCall as a model would: each must come back as an error result that says how to fix the
 * call (never a throw, never a hang), change nothing on failure, and never reach outside the root.
 */
import { existsSync, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AdversarialSandbox,
  contentText,
  createAdversarialSandbox,
  errorCode,
} from './adversarial-sandbox.js';

let box: AdversarialSandbox;
let outsideBefore: string;
beforeAll(async () => {
  box = await createAdversarialSandbox();
  outsideBefore = await box.outsideSnapshot();
});
afterAll(async () => {
  // Whatever the tests did, nothing outside the root changed.
  expect(await box.outsideSnapshot()).toBe(outsideBefore);
  await box.destroy();
});

describe('write_file with paths the file system rejects', () => {
  it('refuses a path below a regular file with not_directory (an error result, not a thrown sandbox failure)', async () => {
    const result = await box.call('write_file', { path: 'a.txt/child.txt', content: 'x' });
    expect(errorCode(result)).toBe('not_directory');
    expect(contentText(result)).toContain('a.txt');
    expect(await box.text('a.txt')).toBe('hello\nworld\n');
  });

  it('refuses a path two levels below a regular file the same way', async () => {
    const result = await box.call('write_file', { path: 'a.txt/x/y/z.txt', content: 'x' });
    expect(errorCode(result)).toBe('not_directory');
    expect(lstatSync(join(box.root, 'a.txt')).isFile()).toBe(true);
  });

  it('refuses a file name over 255 bytes with invalid_arguments and creates nothing', async () => {
    const long = 'x'.repeat(300);
    for (const path of [long, `newdir/${long}/y.txt`]) {
      const result = await box.call('write_file', { path, content: 'x' });
      expect(errorCode(result)).toBe('invalid_arguments');
      expect(contentText(result)).toMatch(/too long/);
    }
    expect(existsSync(join(box.root, 'newdir'))).toBe(false);
  });

  it('still creates a file whose name is exactly 255 bytes of multi-byte characters', async () => {
    const name = `${'é'.repeat(127)}x`; // 255 bytes
    const result = await box.call('write_file', { path: name, content: 'ok' });
    expect(result.isError).toBe(false);
    expect(await box.text(name)).toBe('ok');
  });
});

describe('paths that lead outside the root', () => {
  const escapes = [
    '../x.txt',
    '/etc/passwd',
    'a/../../x.txt',
    'slash/etc/passwd',
    'secretlink',
    'outlink/new.txt',
  ];

  it('read_file, write_file, edit_file refuse every escape with outside_root and touch nothing', async () => {
    for (const path of escapes) {
      expect(errorCode(await box.call('read_file', { path })), `read ${path}`).toBe('outside_root');
      expect(errorCode(await box.call('write_file', { path, content: 'pwned' })), `write ${path}`).toBe(
        'outside_root',
      );
      const edit = await box.call('edit_file', { path, edits: [{ oldText: 'SECRET', newText: 'pwned' }] });
      expect(errorCode(edit), `edit ${path}`).toBe('outside_root');
    }
    expect(existsSync(join(box.root, '..', 'x.txt'))).toBe(false);
  });

  it('delete_file refuses the root however it is spelled, and paths through an outside symlink', async () => {
    for (const path of ['.', './', 'sub/..', box.root, `${box.root}/.`]) {
      expect(errorCode(await box.call('delete_file', { path, recursive: true })), path).toBe('refused');
    }
    for (const path of ['/', '..', 'outlink/secret.txt', 'slash/tmp']) {
      expect(errorCode(await box.call('delete_file', { path, recursive: true })), path).toBe('outside_root');
    }
    expect(existsSync(join(box.root, 'a.txt'))).toBe(true);
  });

  it('delete_file on a symlink to an outside file or to / removes the link only', async () => {
    await box.put('links/keep.txt', 'k');
    const { symlink } = await import('node:fs/promises');
    await symlink(join(box.outside, 'secret.txt'), join(box.root, 'links/to-secret'));
    await symlink('/', join(box.root, 'links/to-slash'));
    for (const path of ['links/to-secret', 'links/to-slash']) {
      const result = await box.call('delete_file', { path, recursive: true });
      expect(result.output).toEqual({ path, deleted: true });
      expect(existsSync(join(box.root, path))).toBe(false);
    }
    expect(existsSync(join(box.outside, 'secret.txt'))).toBe(true);
    expect(existsSync('/etc/passwd')).toBe(true);
    expect(await box.text('links/keep.txt')).toBe('k');
  });

  it('a NUL byte in a path is an error result for every file tool', async () => {
    const path = 'a.txt\u0000../../etc/passwd';
    for (const [name, input] of [
      ['read_file', { path }],
      ['write_file', { path, content: 'x' }],
      ['edit_file', { path, edits: [{ oldText: 'a', newText: 'b' }] }],
      ['delete_file', { path }],
    ] as const) {
      const result = await box.call(name, input);
      expect(result.isError, name).toBe(true);
    }
    expect(await box.text('a.txt')).toBe('hello\nworld\n');
  });

  it('delete_file does not let "junk\\0/.." collapse onto another file: a NUL byte is refused, nothing deleted', async () => {
    await box.put('victim.txt', 'v');
    const result = await box.call('delete_file', { path: 'junk\u0000/../victim.txt' });
    expect(result.isError).toBe(true);
    expect(contentText(result)).toMatch(/NUL/);
    expect(await box.text('victim.txt')).toBe('v');
  });
});

describe('malformed arguments', () => {
  it('answers wrong types, missing fields, negative and float numbers with invalid_arguments naming the field', async () => {
    const cases: [string, unknown, string][] = [
      ['read_file', { path: 5 }, 'path'],
      ['read_file', {}, 'path'],
      ['read_file', { path: 'a.txt', offset: -1 }, 'offset'],
      ['read_file', { path: 'a.txt', offset: 1.5 }, 'offset'],
      ['read_file', { path: 'a.txt', limit: 0 }, 'limit'],
      ['write_file', { path: 'w.txt' }, 'content'],
      ['write_file', { path: 'w.txt', content: null }, 'content'],
      ['write_file', { path: '', content: 'x' }, 'path'],
      ['edit_file', { path: 'a.txt', edits: 'garbage' }, 'edits'],
      ['edit_file', { path: 'a.txt', edits: [] }, 'edits'],
      [
        'edit_file',
        { path: 'a.txt', edits: [{ oldText: 'a', newText: 'b', replaceAll: 'yes' }] },
        'replaceAll',
      ],
      ['delete_file', { path: 'a.txt', recursive: 'true' }, 'recursive'],
      ['delete_file', { path: ['a.txt'] }, 'path'],
    ];
    for (const [name, input, field] of cases) {
      const result = await box.call(name, input);
      expect(errorCode(result), `${name} ${JSON.stringify(input)}`).toBe('invalid_arguments');
      expect(contentText(result)).toContain(field);
    }
    expect(existsSync(join(box.root, 'w.txt'))).toBe(false);
    expect(await box.text('a.txt')).toBe('hello\nworld\n');
  });

  it('answers arguments sent as malformed JSON strings with invalid_arguments', async () => {
    for (const input of ['{bad json', '{"path": "a.txt"', '', 'null', '[1,2]', '"a.txt"']) {
      const result = await box.call('read_file', input);
      expect(errorCode(result), JSON.stringify(input)).toBe('invalid_arguments');
    }
  });

  it('rejects invalid base64 content and writes nothing', async () => {
    const result = await box.call('write_file', {
      path: 'b64.bin',
      content: '!!!not base64',
      encoding: 'base64',
    });
    expect(errorCode(result)).toBe('invalid_arguments');
    expect(existsSync(join(box.root, 'b64.bin'))).toBe(false);
  });
});

describe('edit_file on awkward targets', () => {
  it('rejects overlapping edits, whitespace-only and empty oldText, and leaves the file byte-identical', async () => {
    const cases: [{ oldText: string; newText: string }[], string][] = [
      [
        [
          { oldText: 'hello\nwor', newText: 'A' },
          { oldText: 'world', newText: 'B' },
        ],
        'overlapping_edits',
      ],
      [[{ oldText: '   ', newText: 'A' }], 'no_match'],
      [[{ oldText: '', newText: 'A' }], 'empty_old_text'],
      [[{ oldText: 'hello', newText: 'hello' }], 'no_op'],
      [
        [
          { oldText: 'hello', newText: 'A' },
          { oldText: 'absent', newText: 'B' },
        ],
        'no_match',
      ],
    ];
    for (const [edits, code] of cases) {
      expect(errorCode(await box.call('edit_file', { path: 'a.txt', edits })), code).toBe(code);
      expect(await box.text('a.txt')).toBe('hello\nworld\n');
    }
  });

  it('answers a 0-byte file, a directory, a FIFO and a symlink loop with error results and no hang', async () => {
    await box.put('empty.txt', '');
    const edits = [{ oldText: 'a', newText: 'b' }];
    expect(errorCode(await box.call('edit_file', { path: 'empty.txt', edits }))).toBe('no_match');
    expect(errorCode(await box.call('edit_file', { path: '.', edits }))).toBe('is_directory');
    expect(errorCode(await box.call('edit_file', { path: 'fifo', edits }))).toBe('refused');
    expect((await box.call('edit_file', { path: 'loop1', edits })).isError).toBe(true);
    expect(await box.text('empty.txt')).toBe('');
  });
});

describe('read_file and write_file on special files', () => {
  it('refuses a symlink loop for reading as a link that leads nowhere (it said there was no file)', async () => {
    const result = await box.call('read_file', { path: 'loop1' });
    expect(errorCode(result)).toBe('refused');
    expect(contentText(result)).toMatch(/symlink that leads nowhere/);
  });

  it('refuses a FIFO for reading and writing without blocking on it', async () => {
    expect(errorCode(await box.call('read_file', { path: 'fifo' }))).toBe('refused');
    const write = await box.call('write_file', { path: 'fifo', content: 'x' });
    expect(errorCode(write)).toBe('refused');
    expect(contentText(write)).toMatch(/read or written/);
    expect(lstatSync(join(box.root, 'fifo')).isFIFO()).toBe(true);
  });

  it('round-trips names that start with "-" or hold newlines and quotes', async () => {
    for (const path of ['-rf', '--help', 'odd\nname "q" \'s\' $(x).txt']) {
      expect((await box.call('write_file', { path, content: path })).isError, path).toBe(false);
      expect(contentText(await box.call('read_file', { path }))).toContain(path.split('\n')[0]);
      expect((await box.call('delete_file', { path })).output).toEqual({ path, deleted: true });
    }
    expect(await box.text('a.txt')).toBe('hello\nworld\n');
  });
});

describe('strings with a lone UTF-16 surrogate (half of a pair, e.g. a cut emoji)', () => {
  it('refuses them as invalid_arguments in paths, content, old and new text and diffs, writing nothing (they were written as U+FFFD)', async () => {
    const before = readdirSync(box.root).sort();
    const calls: [string, Record<string, unknown>][] = [
      ['write_file', { path: 'w\uD800.txt', content: 'x' }],
      ['write_file', { path: 'new.txt', content: 'a\uD83Db' }],
      ['read_file', { path: '\uDC00' }],
      ['delete_file', { path: 'a\uD800' }],
      ['edit_file', { path: 'a.txt', edits: [{ oldText: 'hello', newText: 'smile \uD83D' }] }],
      ['edit_file', { path: 'a.txt', edits: [{ oldText: '\uFFFD\uDE00', newText: 'x' }] }],
      ['apply_diff', { diff: '--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n-hello\n+h\uD800llo\n world\n' }],
    ];
    for (const [name, input] of calls) {
      const result = await box.call(name, input);
      expect(errorCode(result), `${name} ${JSON.stringify(input)}`).toBe('invalid_arguments');
      expect(contentText(result), name).toMatch(/lone UTF-16 surrogate/);
    }
    expect(readdirSync(box.root).sort()).toEqual(before);
    expect(await box.text('a.txt')).toBe('hello\nworld\n');
  });
});
