import { readdir } from 'node:fs/promises';
import type { Tool } from '@sandkit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCodingTools } from '../../src/index.js';
import { createFileToolsSandbox, type FileToolsSandbox } from '../file-tools-sandbox.js';
import { toolError } from '../tool-error.js';

const nfd = (text: string) => Buffer.from(text.normalize('NFD'), 'utf8');
const cafeNfd = 'café.txt'.normalize('NFD');
const koreanNfd = '학점인정_notes.md'.normalize('NFD');

let box: FileToolsSandbox;
let tools: Map<string, Tool>;
beforeAll(async () => {
  box = await createFileToolsSandbox();
  await box.put(cafeNfd, nfd('menu = "café crème"\n'));
  await box.put(koreanNfd, nfd('학점인정 기준\n'));
  await box.put('plain.py', nfd('name = "José"\n'));
  await box.put(`docs/${'résumé'.normalize('NFD')}/notes.txt`, 'deep\n');
  tools = new Map(createCodingTools(box.handle.client, { root: box.root }).map((tool) => [tool.name, tool]));
});
afterAll(() => box.handle.destroy());

const call = (name: string, input: Record<string, unknown>) =>
  tools.get(name)!.call(input) as Promise<Record<string, unknown>>;

describe('findNameTwin', () => {
  it('F01: the NFD bytes are what is on disk (the fixture is what macOS leaves)', () => {
    expect(Buffer.from(cafeNfd)).toEqual(Buffer.from('cafe\u0301.txt'));
    expect(cafeNfd).not.toBe('café.txt');
  });

  it('F01: read_file finds an NFD name typed in NFC, shows its text and says the name differs only in normalization', async () => {
    const result = await call('read_file', { path: 'café.txt', lineNumbers: false });
    expect(result).toMatchObject({
      kind: 'text',
      path: cafeNfd,
      content: 'menu = "café crème"'.normalize('NFD'),
    });
    expect(result.notice).toContain('only after Unicode normalization');
    expect(result.notice).toContain('cafe\\u0301.txt');
    const deep = await call('read_file', { path: 'docs/résumé/notes.txt' });
    expect(deep.path).toBe(`docs/${'résumé'.normalize('NFD')}/notes.txt`);
    const korean = await call('read_file', { path: '학점인정_notes.md' });
    expect(korean.path).toBe(koreanNfd);
  });

  it('F01: write_file onto an existing NFD name replaces that file instead of adding a look-alike', async () => {
    await box.put(`${'naïve'.normalize('NFD')}.txt`, 'old\n');
    const result = await call('write_file', { path: 'naïve.txt', content: 'new\n' });
    expect(result).toMatchObject({ created: false, path: `${'naïve'.normalize('NFD')}.txt` });
    expect(result.notice).toContain('only after Unicode normalization');
    expect((await readdir(box.root)).filter((name) => name.normalize('NFC') === 'naïve.txt')).toHaveLength(1);
    expect((await box.bytes(`${'naïve'.normalize('NFD')}.txt`)).toString()).toBe('new\n');
  });

  it('F01: a name with no look-alike is still not found, and two look-alikes are not guessed between', async () => {
    expect((await toolError(call('read_file', { path: 'crème.txt' }))).code).toBe('not_found');
    await box.put('dup/u\u0308\u0301.txt', 'a\n');
    await box.put('dup/\u00fc\u0301.txt', 'b\n');
    const error = await toolError(call('read_file', { path: 'dup/\u01d8.txt' }));
    expect(error.code).toBe('not_found');
    expect(error.message).toContain('2 differ from it only in Unicode normalization');
    expect(error.message).toContain('"u\\u0308\\u0301.txt"');
    await box.put('one/u\u0308\u0301.txt', 'a\n');
    expect((await call('read_file', { path: 'one/\u01d8.txt', lineNumbers: false })).content).toBe('a');
  });

  it('F01: delete_file deletes the NFD-named file given its NFC name, and says so', async () => {
    await box.put('old/Ångström.log'.normalize('NFD'), 'x\n');
    const result = await call('delete_file', { path: 'old/Ångström.log' });
    expect(result).toMatchObject({ deleted: true, path: 'old/Ångström.log'.normalize('NFD') });
    expect(result.notice).toContain('only after Unicode normalization');
    expect(await readdir(`${box.root}/old`)).toEqual([]);
  });

  it('F01: find_files matches NFD names with an NFC glob', async () => {
    expect((await call('find_files', { pattern: '**/*café*' })).files).toEqual([cafeNfd]);
    expect((await call('find_files', { pattern: '*학점인정*' })).files).toEqual([koreanNfd]);
    expect((await call('find_files', { pattern: 'docs/résumé/*' })).files).toHaveLength(1);
  });

  it('F01: search_files finds NFD text with an NFC pattern (regex and fixed strings) and says so', async () => {
    const cafe = await call('search_files', { pattern: 'café' });
    expect((cafe.matches as { path: string }[]).map((m) => m.path)).toEqual([cafeNfd]);
    expect(cafe.notice).toContain('decomposed Unicode');
    const korean = await call('search_files', { pattern: '학점인정' });
    expect((korean.matches as { path: string }[]).map((m) => m.path)).toEqual([koreanNfd]);
    const jose = await call('search_files', { pattern: 'José', fixedStrings: true });
    expect((jose.matches as { path: string; line: number }[]).map((m) => [m.path, m.line])).toEqual([
      ['plain.py', 1],
    ]);
    const plain = await call('search_files', { pattern: 'deep' });
    expect(plain.notice).toBeUndefined();
    const inDir = await call('search_files', { pattern: 'deep', path: 'docs/résumé' });
    expect((inDir.matches as { path: string }[]).map((m) => m.path)).toEqual([
      `docs/${'résumé'.normalize('NFD')}/notes.txt`,
    ]);
    expect(inDir.notice).toContain('only after Unicode normalization');
    const listed = await call('list_files', { path: 'docs/résumé' });
    expect((listed.entries as { path: string }[]).map((e) => e.path)).toEqual([
      `docs/${'résumé'.normalize('NFD')}/notes.txt`,
    ]);
  });
});

describe('applyTextEdits after folding', () => {
  it('F01: edit_file applies an NFC oldText to NFD text, keeps every other byte and writes newText in NFD', async () => {
    await box.put('keep.py', Buffer.concat([Buffer.from('# caf\xe9\r\n', 'latin1'), nfd('name = "José"\n')]));
    const result = await call('edit_file', {
      path: 'keep.py',
      edits: [{ oldText: 'name = "José"', newText: 'name = "José Silva"' }],
    });
    expect(result.notice).toContain('only after Unicode normalization');
    expect(result.notice).toContain('U+0065 U+0301');
    expect(await box.bytes('keep.py')).toEqual(
      Buffer.concat([Buffer.from('# caf\xe9\r\n', 'latin1'), nfd('name = "José Silva"\n')]),
    );
  });

  it('F01: edit_file through an NFC path edits the NFD-named file', async () => {
    await call('edit_file', { path: 'café.txt', edits: [{ oldText: 'crème', newText: 'brûlée' }] });
    expect((await box.bytes(cafeNfd)).toString()).toBe('menu = "café brûlée"\n'.normalize('NFD'));
  });

  it.each([
    ['a zero-width space', 'total\u200b = 1\n', 'total = 1', 'U+200B'],
    ['a no-break space', 'total\u00a0= 1\n', 'total = 1', 'U+00A0'],
    ['a soft hyphen', 'hyphen\u00adated = 1\n', 'hyphenated = 1', 'U+00AD'],
  ])(
    'F01: with %s in the file, edit_file says where and which code point differs, and writes nothing',
    async (_, file, oldText, point) => {
      await box.put('inv.txt', Buffer.from(file, 'utf8'));
      const error = await toolError(
        call('edit_file', { path: 'inv.txt', edits: [{ oldText, newText: 'x' }] }),
      );
      expect(error.code).toBe('no_match');
      expect(error.message).toContain('matches at line 1 if invisible or space-like characters are ignored');
      expect(error.message).toContain(`the file has ${point}`);
      expect(await box.bytes('inv.txt')).toEqual(Buffer.from(file, 'utf8'));
    },
  );

  it('F01: an NBSP typed in oldText where the file has a space is named on the oldText side', async () => {
    await box.put('sp.txt', 'a = 1\n');
    const error = await toolError(
      call('edit_file', { path: 'sp.txt', edits: [{ oldText: 'a\u00a0= 1', newText: 'a = 2' }] }),
    );
    expect(error.message).toContain('oldText has U+00A0');
  });

  it("F01: newText takes an NFC file's form when oldText was typed in NFD (no mixed forms written)", async () => {
    await box.put('nfc.txt', Buffer.from('name = "José"\n', 'utf8'));
    const result = await call('edit_file', {
      path: 'nfc.txt',
      edits: [{ oldText: 'José'.normalize('NFD'), newText: 'José Silva'.normalize('NFD') }],
    });
    expect(result.notice).toContain('only after Unicode normalization');
    expect(await box.bytes('nfc.txt')).toEqual(Buffer.from('name = "José Silva"\n', 'utf8'));
  });

  it.each([
    ['an ASCII letter under an acute', 'cafe\u0301 cafe\n', 'cafe', 'X', true, 'cafe\u0301 X\n'],
    ['a Hangul syllable with a final jamo', '\uac00\u11a8 \uac00\n', '\uac00', 'K', true, '\uac00\u11a8 K\n'],
    ['the only spelling, not replaceAll', 'cafe\u0301 = cafe\n', 'cafe', 'X', false, 'cafe\u0301 = X\n'],
  ])(
    'F01: an exact oldText ending where %s continues is not matched there (the mark would move onto newText)',
    async (_, file, oldText, newText, replaceAll, expected) => {
      await box.put('mark.txt', Buffer.from(file, 'utf8'));
      await call('edit_file', { path: 'mark.txt', edits: [{ oldText, newText, replaceAll }] });
      expect((await box.bytes('mark.txt')).toString('utf8')).toBe(expected);
    },
  );

  it('F01: replaceAll in a file mixing NFC and NFD replaces every look-alike, each in its own form, and says so', async () => {
    const file = `caf\u00e9 = 1\ncafe\u0301 = 2\ncaf\u00e9\n`;
    await box.put('mixed.txt', Buffer.from(file, 'utf8'));
    const result = await call('edit_file', {
      path: 'mixed.txt',
      edits: [{ oldText: 'caf\u00e9', newText: 'th\u00e9', replaceAll: true }],
    });
    expect(result.replacements).toBe(3);
    expect(result.notice).toContain('replaceAll also replaced 1 look-alike');
    expect(result.notice).toContain('line 2');
    expect((await box.bytes('mixed.txt')).toString('utf8')).toBe(`th\u00e9 = 1\nthe\u0301 = 2\nth\u00e9\n`);
  });

  it('F01: an oldText that only exists cut off before a combining mark is no_match, and nothing is written', async () => {
    await box.put('cut.txt', Buffer.from('cafe\u0301\n', 'utf8'));
    const error = await toolError(
      call('edit_file', { path: 'cut.txt', edits: [{ oldText: 'cafe', newText: 'tea' }] }),
    );
    expect(error.code).toBe('no_match');
    expect(await box.bytes('cut.txt')).toEqual(Buffer.from('cafe\u0301\n', 'utf8'));
  });
});
