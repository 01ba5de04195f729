/**
 * Where the exec tools keep output files: `<root>/.sandkit/exec/`, inside the workspace so the
 * model can page through a file with read_file (a directory outside the root would be refused by
 * read_file). `.sandkit/.gitignore` holds `*`, so git status, git diff and `git add -A` ignore the
 * whole directory and the working tree stays clean.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { formatCommand } from '@sandkit/core';

/** The log directory for a (symlink-free) workspace root. */
export function execLogDir(root: string): string {
  return `${root === '/' ? '' : root}/.sandkit/exec`;
}

/** A shell snippet that makes the log directory and its `.gitignore` when missing (builtins only when present). */
export function ensureLogDirScript(root: string): string {
  const dir = execLogDir(root);
  const base = dir.slice(0, -'/exec'.length);
  const ignore = `${base}/.gitignore`;
  return `[ -d ${formatCommand([dir])} ] || mkdir -p -- ${formatCommand([dir])}; [ -f ${formatCommand([ignore])} ] || printf '*\\n' > ${formatCommand([ignore])}`;
}

/** A fresh id for a command's files: 12 hex digits, safe in paths and shell words. */
export function newOutputId(): string {
  return randomBytes(6).toString('hex');
}
