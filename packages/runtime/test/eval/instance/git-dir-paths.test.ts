import { describe, expect, it } from 'vitest';
import { gitDirPaths } from '../../../src/eval/instance/git-dir-paths.js';

const section = (header: string[]) => [...header, '@@ -0,0 +1 @@', '+x', ''].join('\n');

describe('gitDirPaths', () => {
  describe('when a header names a path inside a .git directory', () => {
    it.each([
      [
        'diff --git',
        ['diff --git a/.git/config b/.git/config', '--- a/.git/config', '+++ b/.git/config'],
        '.git/config',
      ],
      ['plain +++ only', ['--- /dev/null', '+++ .git/hooks/pre-commit'], '.git/hooks/pre-commit'],
      [
        './ prefix',
        ['--- /dev/null', '+++ ./.git/hooks/post-checkout\t2024-01-01'],
        './.git/hooks/post-checkout',
      ],
      ['a submodule .git', ['--- a/sub/.git/HEAD', '+++ b/sub/.git/HEAD'], 'sub/.git/HEAD'],
      ['upper case', ['--- /dev/null', '+++ b/.GIT/hooks/post-checkout'], '.GIT/hooks/post-checkout'],
      ['C-quoted with an octal dot', ['--- /dev/null', '+++ "b/\\056git/hooks/x"'], '.git/hooks/x'],
      ['context diff', ['*** /dev/null', '--- .git/hooks/x'], '.git/hooks/x'],
      ['Index: line', ['Index: .git/hooks/x', '--- /dev/null', '+++ x'], '.git/hooks/x'],
    ])('R11: finds it (%s)', (_name, header, path) => {
      expect(gitDirPaths(section(header))).toEqual([path]);
    });

    it('R11: finds a rename or copy into .git/ that has no ---/+++ lines', () => {
      for (const verb of ['rename', 'copy']) {
        const patch = [
          'diff --git a/hook.sh b/hook.sh',
          'similarity index 100%',
          `${verb} from hook.sh`,
          `${verb} to .git/hooks/post-checkout`,
          '',
        ].join('\n');
        expect(gitDirPaths(patch)).toEqual(['.git/hooks/post-checkout']);
      }
    });

    it('R11: finds a header after a hunk whose counts claim more lines', () => {
      const patch = [
        '--- a/x.py',
        '+++ b/x.py',
        '@@ -1 +1,9 @@',
        '-a',
        '+b',
        '--- /dev/null',
        '+++ b/.git/hooks/post-checkout',
        '@@ -0,0 +1 @@',
        '+#!/bin/sh',
        '',
      ].join('\n');
      expect(gitDirPaths(patch)).toEqual(['.git/hooks/post-checkout']);
    });
  });

  describe('when no path lies inside .git/', () => {
    it('returns [] for .github/, .gitignore, .gitattributes, foo.git/ and a .git mentioned in a hunk', () => {
      const patch = [
        section([
          'diff --git a/.github/ci.yml b/.github/ci.yml',
          '--- a/.github/ci.yml',
          '+++ b/.github/ci.yml',
        ]),
        section(['--- a/.gitignore', '+++ b/.gitignore']),
        section(['--- a/.gitattributes', '+++ b/.gitattributes']),
        section(['--- a/repo.git/x', '+++ b/repo.git/x']),
        ['--- a/doc.md', '+++ b/doc.md', '@@ -1 +1 @@', '-see .git/config', '+see .git/hooks', ''].join('\n'),
      ].join('');
      expect(gitDirPaths(patch)).toEqual([]);
    });
  });
});
