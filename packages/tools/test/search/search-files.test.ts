import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SandboxClient, SandboxHandle } from '@sandkit/core';
import { ToolError } from '@sandkit/core';
import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSearchFilesTool } from '../../src/search/search-files.js';
import type { SearchFilesOutput } from '../../src/search/search-files-schema.js';

let sandbox: SandboxHandle;
let outside: string;
let noRgPath: string;

beforeAll(async () => {
  sandbox = await createLocalSandboxAdapter().create();
  const put = async (name: string, content: string | Buffer) => {
    await mkdir(join(sandbox.workdir, name, '..'), { recursive: true });
    await writeFile(join(sandbox.workdir, name), content);
  };
  await put('flags.txt', 'run --verbose\nx = -1\nplain\n');
  await put('src/a.ts', 'const a = foo(1);\nconst b = a.b[0];\n// TODO one\n');
  await put('src/b.ts', 'one\ntwo\nTODO two\nthree\nfour\nTODO three\nfive\n');
  await put('src/sub/c.py', 'x = 1  # TODO four\n');
  await put('long.txt', `${'x'.repeat(3000)}needle\n`);
  await put('weird name\nline.txt', 'TODO five\n');
  await put('many/m.txt', 'MANY line\n'.repeat(60));
  await put('huge/h.txt', Array.from({ length: 25_000 }, (_, i) => `HUGE ${i + 1}`).join('\n'));
  await put('latin1.txt', Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x54, 0x4f, 0x44, 0x4f, 0x0a]));
  outside = await mkdtemp(join(tmpdir(), 'sandkit-outside-'));
  await writeFile(join(outside, 'secret.txt'), 'TODO secret\n');
  await symlink(outside, join(sandbox.workdir, 'link-out'));
  await symlink(join(outside, 'secret.txt'), join(sandbox.workdir, 'secret-link.txt'));
  await symlink('src/a.ts', join(sandbox.workdir, 'inside-link.ts'));
  // a PATH with the usual programs but no rg, to exercise the grep fallback with real grep
  noRgPath = await mkdtemp(join(tmpdir(), 'sandkit-norg-'));
  for (const program of ['grep', 'sh', 'env', 'cat', 'head', 'tail', 'sort', 'realpath', 'pwd', 'test']) {
    await symlink(`/usr/bin/${program}`, join(noRgPath, program)).catch(() =>
      symlink(`/bin/${program}`, join(noRgPath, program)),
    );
  }
});
afterAll(async () => {
  await sandbox.destroy();
  await rm(outside, { recursive: true, force: true });
  await rm(noRgPath, { recursive: true, force: true });
});

/** The real client with PATH limited to a directory without rg. */
function withoutRg(client: SandboxClient): SandboxClient {
  return {
    ...client,
    exec: (command, options = {}) =>
      client.exec(command, { ...options, env: { ...options.env, PATH: noRgPath } }),
  };
}

const engines = [
  ['rg', () => createSearchFilesTool(sandbox.client, { root: sandbox.workdir })],
  [
    'grep (rg missing from PATH)',
    () => createSearchFilesTool(withoutRg(sandbox.client), { root: sandbox.workdir }),
  ],
] as const;

async function search(
  tool: ReturnType<typeof createSearchFilesTool>,
  input: Record<string, unknown>,
): Promise<SearchFilesOutput> {
  return (await tool.call(input)) as SearchFilesOutput;
}

describe.each(engines)('createSearchFilesTool with %s', (name, make) => {
  const expectedEngine = name === 'rg' ? 'rg' : 'grep';

  it('B16: finds lines for a pattern that starts with "-" (passed after -e)', async () => {
    const result = await search(make(), { pattern: '--verbose|-1', path: '.' });
    expect(result.engine).toBe(expectedEngine);
    expect(result.matches.map((m) => [m.path, m.line, m.text])).toEqual([
      ['flags.txt', 1, 'run --verbose'],
      ['flags.txt', 2, 'x = -1'],
    ]);
  });

  it('B16: searches literal text with fixedStrings', async () => {
    const result = await search(make(), { pattern: 'a.b[0]', fixedStrings: true });
    expect(result.matches).toEqual([{ path: 'src/a.ts', line: 2, text: 'const b = a.b[0];' }]);
  });

  it('B18: returns at once with no path given (explicit "." so stdin is never read)', async () => {
    const started = Date.now();
    const result = await search(make(), { pattern: 'TODO', maxMatches: 1000 });
    const commands: string[] = [];
    const recording: SandboxClient = {
      ...sandbox.client,
      exec: (command, options) => {
        commands.push(command);
        return sandbox.client.exec(command, options);
      },
    };
    const engine = name === 'rg' ? 'rg' : 'grep';
    await createSearchFilesTool(recording, { root: sandbox.workdir, engine }).call({ pattern: 'TODO' });
    const searchCommand = commands.find(
      (command) => command.includes(`${engine} `) && !command.includes('--files-with-matches'),
    )!;
    expect(searchCommand).toMatch(/ -e TODO -- \.$/);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(result.matches.map((m) => `${m.path}:${m.line}`)).toEqual([
      'latin1.txt:1',
      'src/a.ts:3',
      'src/b.ts:3',
      'src/b.ts:6',
      'src/sub/c.py:1',
      'weird name\nline.txt:1',
    ]);
    expect(result.matches[0]!.text).toBe('caf\ufffd TODO');
    expect(result.truncated).toBe(false);
  });

  it('does not follow a symlink out of the root', async () => {
    const result = await search(make(), { pattern: 'secret' });
    expect(result.matches).toEqual([]);
  });

  it('pages with offset and nextOffset without losing or repeating a match', async () => {
    const seen: string[] = [];
    let offset: number | undefined = 0;
    while (offset !== undefined) {
      const result: SearchFilesOutput = await search(make(), { pattern: 'TODO', maxMatches: 4, offset });
      seen.push(...result.matches.map((m) => `${m.path}:${m.line}`));
      offset = result.nextOffset;
      expect(result.truncated).toBe(offset !== undefined);
    }
    expect(seen).toHaveLength(6);
    expect(new Set(seen).size).toBe(6);
  });

  it('returns context lines before and after each match', async () => {
    const result = await search(make(), { pattern: 'TODO', path: 'src/b.ts', context: 1 });
    expect(result.matches).toEqual([
      { path: 'src/b.ts', line: 3, text: 'TODO two', before: ['two'], after: ['three'] },
      { path: 'src/b.ts', line: 6, text: 'TODO three', before: ['four'], after: ['five'] },
    ]);
  });

  it('lists files and counts per file in the other output modes', async () => {
    const files = await search(make(), { pattern: 'TODO', path: 'src', outputMode: 'files_with_matches' });
    expect(files.files).toEqual(['src/a.ts', 'src/b.ts', 'src/sub/c.py']);
    const counts = await search(make(), { pattern: 'TODO', path: 'src', outputMode: 'count' });
    expect(counts.counts).toEqual([
      { path: 'src/a.ts', count: 1 },
      { path: 'src/b.ts', count: 2 },
      { path: 'src/sub/c.py', count: 1 },
    ]);
  });

  it('filters by glob and ignores case', async () => {
    const result = await search(make(), { pattern: 'todo', ignoreCase: true, glob: '*.py' });
    expect(result.matches.map((m) => m.path)).toEqual(['src/sub/c.py']);
  });

  it('clips a long line with a marker', async () => {
    const result = await search(make(), { pattern: 'needle' });
    expect(result.matches[0]!.text).toMatch(/^x{500}… \[line clipped: 3006 chars\]$/);
  });

  it('returns no matches (exit 1) as an empty result, not an error', async () => {
    const result = await search(make(), { pattern: 'no-such-text-anywhere' });
    expect(result).toMatchObject({ matches: [], truncated: false });
  });

  it('throws invalid_pattern with the program reason for a bad regex', async () => {
    const error = await make()
      .call({ pattern: 'foo(' })
      .catch((e: unknown) => e);
    expect(ToolError.isInstance(error) && error.code).toBe('invalid_pattern');
    expect((error as Error).message).toMatch(/unclosed group|Unmatched \(/);
  });

  it('refuses a path that is a symlink leading out of the root, checked in the same shell as the search', async () => {
    const error = await make()
      .call({ pattern: 'secret', path: 'link-out' })
      .catch((e: unknown) => e);
    expect(ToolError.isInstance(error) && error.code).toBe('outside_root');
    expect((error as Error).message).toContain(outside);
    const file = await make()
      .call({ pattern: 'secret', path: 'secret-link.txt' })
      .catch((e: unknown) => e);
    expect(ToolError.isInstance(file) && file.code).toBe('outside_root');
  });

  it('searches a single file given directly, and a symlink to a file inside the root', async () => {
    expect((await search(make(), { pattern: 'TODO', path: 'src/a.ts' })).matches).toEqual([
      { path: 'src/a.ts', line: 3, text: '// TODO one' },
    ]);
    expect((await search(make(), { pattern: 'TODO', path: 'inside-link.ts' })).matches).toEqual([
      { path: 'src/a.ts', line: 3, text: '// TODO one' },
    ]);
  });

  it('throws not_found for a path that does not exist', async () => {
    const error = await make()
      .call({ pattern: 'x', path: 'no/such/dir' })
      .catch((e: unknown) => e);
    expect(ToolError.isInstance(error) && error.code).toBe('not_found');
  });

  it('refuses a path outside the root', async () => {
    const error = await make()
      .call({ pattern: 'x', path: '../' })
      .catch((e: unknown) => e);
    expect(ToolError.isInstance(error) && error.code).toBe('outside_root');
  });
});

describe('createSearchFilesTool engine option', () => {
  it('uses grep when engine is "grep" even though rg is installed', async () => {
    const tool = createSearchFilesTool(sandbox.client, { root: sandbox.workdir, engine: 'grep' });
    const result = await search(tool, { pattern: '--verbose|-1' });
    expect(result.engine).toBe('grep');
    expect(result.matches.map((m) => m.line)).toEqual([1, 2]);
  });
});

describe('createSearchFilesTool paging under the output cap', () => {
  it('cuts a page at maxOutputBytes and continues from nextOffset', async () => {
    const tool = createSearchFilesTool(sandbox.client, { root: sandbox.workdir, maxOutputBytes: 1024 });
    const first = await search(tool, { pattern: 'MANY', maxMatches: 100 });
    expect(first.truncated).toBe(true);
    expect(first.matches.length).toBeGreaterThan(0);
    expect(first.matches.length).toBeLessThan(60);
    expect(Buffer.byteLength(JSON.stringify(first))).toBeLessThan(1024);
    let offset = first.nextOffset;
    let total = first.matches.length;
    while (offset !== undefined) {
      const next: SearchFilesOutput = await search(tool, { pattern: 'MANY', maxMatches: 100, offset });
      total += next.matches.length;
      offset = next.nextOffset;
    }
    expect(total).toBe(60);
  });
});

describe.each(engines)('createSearchFilesTool with %s past 20,000 results', (_name, make) => {
  it('switches to a run that stops once the page is full, and pages stay exact', async () => {
    const first = await search(make(), { pattern: 'HUGE', path: 'huge', maxMatches: 3 });
    expect(first.matches.map((m) => m.text)).toEqual(['HUGE 1', 'HUGE 2', 'HUGE 3']);
    expect(first).toMatchObject({ truncated: true, nextOffset: 3 });
    const deep = await search(make(), { pattern: 'HUGE', path: 'huge', maxMatches: 100, offset: 24_990 });
    expect(deep.matches.map((m) => m.line)).toEqual(Array.from({ length: 10 }, (_, i) => 24_991 + i));
    expect(deep.truncated).toBe(false);
    expect(deep.nextOffset).toBeUndefined();
    const files = await search(make(), { pattern: 'HUGE', outputMode: 'count' });
    expect(files.counts).toEqual([{ path: 'huge/h.txt', count: 25_000 }]);
  });
});
