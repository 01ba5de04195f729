/**
 * Protected paths: workspace paths the tools never write, even though the workspace is writable
 * (`.git/hooks`, `.git/config`, shell rc files by default: what would run code on the next `git`
 * command or shell of whoever uses the workspace). The local adapter's bubblewrap mode binds the
 * same list read-only for commands.
 * @module
 */
import { SandkitErrorCode, ToolError } from '@sandkit/core';
import type { ToolContext } from './coding-tool-options.js';

/**
 * The protected entry that `relative` (a path relative to the root, symlinks resolved) is or lies
 * under, or `undefined`.
 */
export function protectedRule(protectedPaths: readonly string[], relative: string): string | undefined {
  return protectedPaths.find((rule) => relative === rule || relative.startsWith(`${rule}/`));
}

/**
 * @throws ToolError `protected_path` when `target.relative` is protected; the message names the rule.
 */
export function assertNotProtected(
  context: ToolContext,
  target: { relative: string },
  action = 'write',
): void {
  const rule = protectedRule(context.protectedPaths, target.relative);
  if (rule === undefined) return;
  throw new ToolError({
    code: SandkitErrorCode.protectedPath,
    message: `cannot ${action} "${target.relative}": it is a protected path (rule "${rule}"), kept read-only because a change there could run code outside the task (git hooks, git config, shell start-up files); change other files instead`,
    details: { path: target.relative, rule },
  });
}
