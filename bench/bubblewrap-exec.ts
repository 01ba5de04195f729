/**
 * bubblewrap-exec: what isolation costs per command, and once per sandbox.
 *
 * Per call: `exec('true')` on a local sandbox with `isolation: 'bubblewrap'` (one long-lived bwrap
 * with an exec server inside) against the plain local adapter, interleaved round by round so host
 * load hits both alike; a fresh `bwrap … sh -c true` per command is measured too (what a
 * bwrap-per-command design would pay). Fixed cost: `create()` + `destroy()` of a bubblewrap
 * sandbox against a plain one. Goal: per-call median ratio ≤ 1.3×.
 *
 * Run: pnpm tsx bench/bubblewrap-exec.ts [iterations=300]
 */
import { execa } from 'execa';
import { createLocalSandboxAdapter } from '../packages/sandbox-adapters/src/local/index.js';
import { median, time } from './bench-stats.js';

const iterations = Number(process.argv[2] ?? 300);
const rounds = 10;

const plain = await createLocalSandboxAdapter().create();
const isolated = await createLocalSandboxAdapter({ isolation: 'bubblewrap' }).create();
const bwrapPerCommand = (): Promise<unknown> =>
  execa('bwrap', [
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--tmpfs',
    '/tmp',
    '--unshare-pid',
    '--unshare-net',
    '--die-with-parent',
    '--new-session',
    '--',
    '/bin/sh',
    '-c',
    'true',
  ]);
for (let i = 0; i < 20; i++) {
  await plain.client.exec('true');
  await isolated.client.exec('true');
}
const per = { plain: [] as number[], isolated: [] as number[], perCommand: [] as number[] };
const perRound = iterations / rounds;
for (let round = 0; round < rounds; round++) {
  for (let i = 0; i < perRound; i++) per.plain.push(await time(() => plain.client.exec('true')));
  for (let i = 0; i < perRound; i++) per.isolated.push(await time(() => isolated.client.exec('true')));
  for (let i = 0; i < perRound / 5; i++) per.perCommand.push(await time(bwrapPerCommand));
}
await plain.destroy();
await isolated.destroy();

const lifecycle = { plain: [] as number[], isolated: [] as number[] };
for (let i = 0; i < 10; i++) {
  lifecycle.plain.push(await time(async () => (await createLocalSandboxAdapter().create()).destroy()));
  lifecycle.isolated.push(
    await time(async () => (await createLocalSandboxAdapter({ isolation: 'bubblewrap' }).create()).destroy()),
  );
}
const ms = (value: number): string => `${value.toFixed(2)} ms`;
const base = median(per.plain);
console.log(`exec('true'), ${iterations} calls each, ${rounds} interleaved rounds:`);
console.log(`  plain local          ${ms(base)}  1.00x`);
console.log(
  `  bubblewrap (server)  ${ms(median(per.isolated))}  ${(median(per.isolated) / base).toFixed(2)}x  (goal <= 1.3x)`,
);
console.log(
  `  bwrap per command    ${ms(median(per.perCommand))}  ${(median(per.perCommand) / base).toFixed(2)}x  (not used)`,
);
console.log('create + destroy, 10 each:');
console.log(`  plain local          ${ms(median(lifecycle.plain))}`);
console.log(
  `  bubblewrap           ${ms(median(lifecycle.isolated))}  (+${ms(median(lifecycle.isolated) - median(lifecycle.plain))} per sandbox)`,
);
