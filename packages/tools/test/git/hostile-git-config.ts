import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

/*
 * Shared test helper: also imported by packages/runtime/test/agent/workspace-diff-git-config.test.ts
 * and packages/runtime/test/eval/instance/apply-patch-git-config.test.ts (relative path), so keep it
 * free of package-specific imports.
 */

/**
 * One git setting that changes a diff's format when a call does not pin it, with what it is for.
 * `diff.external` names a script that prints a diff-like line with no prefixes.
 */
export interface HostileGitConfig {
  name: string;
  entries: Array<[key: string, value: string]>;
}

/** A script usable as `diff.external`: prints `diff src/old.py src/old.py` and nothing git can apply. */
export function externalDiffScript(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sandkit-extdiff-'));
  const path = join(dir, 'ext-diff.sh');
  writeFileSync(path, '#!/bin/sh\necho "diff $1 $1 (external)"\n');
  chmodSync(path, 0o755);
  return path;
}

/** The settings D01 names, and the others git-config(1) lets change a diff that is applied later. */
export function hostileGitConfigs(): HostileGitConfig[] {
  return [
    { name: 'D01: diff.noprefix=true', entries: [['diff.noprefix', 'true']] },
    { name: 'diff.mnemonicPrefix=true', entries: [['diff.mnemonicPrefix', 'true']] },
    { name: 'diff.external', entries: [['diff.external', externalDiffScript()]] },
    {
      name: 'color.ui=always',
      entries: [
        ['color.ui', 'always'],
        ['color.diff', 'always'],
      ],
    },
    { name: 'core.quotePath=false', entries: [['core.quotePath', 'false']] },
    { name: 'diff.context=0', entries: [['diff.context', '0']] },
    { name: 'diff.relative=true', entries: [['diff.relative', 'true']] },
  ];
}

/** Writes `entries` into `file` with `git config --file`. */
export function writeGitConfig(file: string, entries: HostileGitConfig['entries']): void {
  for (const [key, value] of entries) execFileSync('git', ['config', '--file', file, key, value]);
}

/**
 * Applies `patch` with `git apply -p1` to a clean clone of `repo` at HEAD, under a config-free
 * environment, and returns the clone's directory; throws git's message when it does not apply.
 */
export function applyToCleanClone(repo: string, patch: string): string {
  const clone = mkdtempSync(join(tmpdir(), 'sandkit-apply-'));
  const env = { ...process.env, HOME: clone, GIT_CONFIG_NOSYSTEM: '1', LC_ALL: 'C' };
  execFileSync('git', ['clone', '-q', repo, join(clone, 'r')], { env });
  writeFileSync(join(clone, 'patch.diff'), patch);
  execFileSync('git', ['apply', '-p1', join(clone, 'patch.diff')], {
    cwd: join(clone, 'r'),
    env,
    stdio: 'pipe',
  });
  return join(clone, 'r');
}

/**
 * Points `HOME` at a fresh temp directory for the calling test file (registers `beforeAll` /
 * `afterAll`; the real `HOME` comes back after the file), so a test can write a global
 * `.gitconfig` there; the local adapter passes `HOME` on to sandbox commands.
 * @returns a getter for the temp HOME (valid once `beforeAll` has run)
 */
export function useTempHome(): () => string {
  const realHome = process.env.HOME;
  let home = '';
  beforeAll(() => {
    home = mkdtempSync(join(tmpdir(), 'sandkit-home-'));
    process.env.HOME = home;
  });
  afterAll(() => {
    process.env.HOME = realHome;
  });
  return () => home;
}
