/**
 * search: search_files against raw `rg --json` for the same pattern, on a generated tree of
 * 20,000 files / 200 MB (under /tmp, removed at the end), measured in the same run and
 * interleaved round by round so machine load hits both the same. Goal: ≤ 1.1×.
 *
 * Baselines:
 * - `rg --json -e P -- .` run through the same sandbox client (same /bin/sh spawn, same output
 *   collection): what the tool adds on top of the program it wraps. This is the ratio the goal
 *   is about.
 * - the same argv spawned directly from Node (execFileSync), for reference.
 * search_files returns the first 100 matches (its default page); the raw command prints all of
 * them, as a caller would have to parse them all. search_files' extra execs are counted: with no
 * `path` the root is resolved once (`pwd -P`, cached per client) and no realpath runs; the case
 * with a `path` (`d000`, one directory; `d000/f000.txt`, one file: the tool's fixed cost per call)
 * resolves and checks it with shell builtins in the same shell as rg, against raw rg on `./d000`.
 *
 * Run: pnpm tsx bench/search.ts [rounds=7]
 */
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { formatCommand } from '../packages/core/src/index.js';
import { createLocalSandboxAdapter } from '../packages/sandbox-adapters/src/local/index.js';
import { createSearchFilesTool } from '../packages/tools/src/search/search-files.js';
import { median, time } from './bench-stats.js';

const rounds = Number(process.argv[2] ?? 7);
const fileCount = 20_000;
const fileBytes = 10_500;

/** Deterministic text: words from a xorshift generator; `rareToken` in ~1% of files, `commonToken` ~2.5× per file. */
async function generateTree(root: string): Promise<void> {
  let state = 0x9e3779b9;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x1_0000_0000;
  };
  const words = Array.from({ length: 4000 }, () =>
    Array.from({ length: 3 + Math.floor(next() * 8) }, () =>
      String.fromCharCode(97 + Math.floor(next() * 26)),
    ).join(''),
  );
  for (let dir = 0; dir < 100; dir++) {
    const dirPath = join(root, `d${String(dir).padStart(3, '0')}`);
    await mkdir(dirPath, { recursive: true });
    const writes: Promise<void>[] = [];
    for (let file = 0; file < fileCount / 100; file++) {
      const lines: string[] = [];
      let size = 0;
      while (size < fileBytes) {
        let line = Array.from({ length: 12 }, () => words[Math.floor(next() * words.length)]).join(' ');
        const roll = next();
        if (roll < 0.0001) line += ' rareToken';
        else if (roll < 0.02) line += ' commonToken';
        lines.push(line);
        size += line.length + 1;
      }
      writes.push(writeFile(join(dirPath, `f${String(file).padStart(3, '0')}.txt`), `${lines.join('\n')}\n`));
    }
    await Promise.all(writes);
  }
}

const sandbox = await createLocalSandboxAdapter({ root: '/tmp' }).create();
try {
  const generated = await time(() => generateTree(sandbox.workdir));
  const du = execFileSync('du', ['-sm', '--apparent-size', sandbox.workdir], { encoding: 'utf8' }).split(
    '\t',
  )[0];
  console.log(
    `search: tree of ${fileCount} files, ${du} MB under ${sandbox.workdir}, generated in ${(generated / 1000).toFixed(1)} s; ${rounds} rounds`,
  );
  const tool = createSearchFilesTool(sandbox.client, { root: sandbox.workdir });
  console.log(
    '| pattern | path | matches (rg) | raw rg --json via client, ms | raw rg --json spawned, ms | search_files, ms | ratio vs client | ratio vs spawn |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  const cases = [
    { pattern: 'rareToken', path: undefined },
    { pattern: 'commonToken', path: undefined },
    { pattern: 'commonToken', path: 'd000' },
    { pattern: 'commonToken', path: 'd000/f000.txt' },
  ];
  for (const { pattern, path } of cases) {
    const argv = ['rg', '--json', '-e', pattern, '--', path === undefined ? '.' : `./${path}`];
    let matches = 0;
    const raw = async () => {
      const result = await sandbox.client.exec(formatCommand(argv), {
        cwd: sandbox.workdir,
        maxOutputBytes: 512 * 1024 * 1024,
      });
      if (result.exitCode !== 0) throw new Error(`rg exit ${result.exitCode}: ${result.stderr}`);
      matches = (result.stdout.match(/^\{"type":"match"/gm) ?? []).length;
    };
    const spawned = () =>
      execFileSync(argv[0]!, argv.slice(1), { cwd: sandbox.workdir, maxBuffer: 512 * 1024 * 1024 });
    const viaTool = async () => {
      const result = await tool.call({ pattern, ...(path === undefined ? {} : { path }) });
      if (result.matches.length === 0) throw new Error('search_files found nothing');
    };
    await raw();
    spawned();
    await viaTool();
    const samples = { raw: [] as number[], spawned: [] as number[], tool: [] as number[] };
    for (let round = 0; round < rounds; round++) {
      samples.raw.push(await time(raw));
      samples.spawned.push(await time(spawned));
      samples.tool.push(await time(viaTool));
    }
    const [r, s, t] = [median(samples.raw), median(samples.spawned), median(samples.tool)];
    console.log(
      `| ${pattern} | ${path ?? '(root)'} | ${matches} | ${r.toFixed(0)} | ${s.toFixed(0)} | ${t.toFixed(0)} | ${(t / r).toFixed(3)}× | ${(t / s).toFixed(3)}× |`,
    );
  }
} finally {
  await sandbox.destroy();
}
