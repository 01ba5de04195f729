/**
 * Checks apply_diff makes before running patch, so the model gets a precise reason instead of
 * patch's generic one.
 * @module
 */
import { formatCommand, type SandboxClient, SandkitError, SandkitErrorCode, ToolError } from '@sandkit/core';
import { isDirectory, notRegularFile, toFileToolError } from '../files/file-tool-errors.js';
import { type InspectedPath, relativeTo } from '../workspace/resolve-path.js';
import type { PatchTarget } from './check-patch-reports.js';

/**
 * The text of a file, or `undefined` when it does not exist.
 * @throws ToolError `is_directory`, `not_directory` (a parent is a file) or `refused` (a device, pipe
 *   or symlink loop): a diff changes regular files only
 */
export async function readIfExists(client: SandboxClient, path: InspectedPath): Promise<string | undefined> {
  const hint = 'a diff changes files only: name a file in the --- / +++ lines';
  if (path.kind === 'directory') throw isDirectory(path.relative, hint);
  if (path.kind === 'other') throw notRegularFile(path.relative, 'special');
  try {
    return new TextDecoder().decode(await client.readFile(path.absolute));
  } catch (error) {
    if (SandkitError.isInstance(error) && error.code === SandkitErrorCode.fileNotFound) return undefined;
    if (SandkitError.isInstance(error) && error.code === SandkitErrorCode.refused) {
      throw notRegularFile(path.relative, 'special');
    }
    throw toFileToolError(error, path.relative);
  }
}

const existsExit = 4;
const parentNotDirectoryExit = 3;
// $1 the absolute path a diff creates: exits ${existsExit} when something is there (a dangling symlink
// too), ${parentNotDirectoryExit} printing the nearest existing ancestor when that is not a directory
// (patch's dry run does not see it; its real run fails), else 0.
const newPathScript = `if [ -e "$1" ] || [ -L "$1" ]; then exit ${existsExit}; fi
d=\${1%/*}
while [ -n "$d" ] && [ ! -e "$d" ] && [ ! -L "$d" ]; do d=\${d%/*}; done
if [ -n "$d" ] && [ ! -d "$d" ]; then printf '%s' "$d"; exit ${parentNotDirectoryExit}; fi`;

/**
 * A file to change, rename or delete must exist; a file to create (or rename or copy to) must not.
 * @throws ToolError `patch_failed` saying which and how to write the diff instead
 */
export async function assertPreconditions(client: SandboxClient, target: PatchTarget): Promise<void> {
  const { file } = target;
  const name = file.newPath ?? file.oldPath;
  if (file.status !== 'added' && target.content === undefined) {
    throw new ToolError({
      code: SandkitErrorCode.patchFailed,
      message: `${file.oldPath} does not exist (relative to the diff's directory), nothing was changed; to create a new file use "--- /dev/null" and "+++ b/${name}"`,
      details: { path: file.oldPath },
    });
  }
  if (file.status === 'added' || file.status === 'renamed' || file.status === 'copied') {
    const check = await client.exec(`set -- ${formatCommand([target.new!.absolute])}\n${newPathScript}`);
    if (check.exitCode === parentNotDirectoryExit) {
      const parent = relativeTo(target.new!.root, check.stdout);
      throw new ToolError({
        code: SandkitErrorCode.notDirectory,
        message: `cannot create ${target.new!.relative}: ${parent} is a file, not a directory; nothing was changed. Pick another path for the new file`,
        details: { path: target.new!.relative, parent },
      });
    }
    if (check.exitCode === existsExit) {
      throw new ToolError({
        code: SandkitErrorCode.patchFailed,
        message: `${target.new!.relative} already exists, so the diff cannot ${file.status === 'added' ? 'create' : `${file.status === 'renamed' ? 'rename' : 'copy'} a file to`} it; nothing was changed. Diff against its current content instead (--- a/${name})`,
        details: { path: target.new!.relative },
      });
    }
  }
}

/**
 * A dry run checks every section against the original file, so a second section for the same file
 * (written against the first one's result) would be refused for the wrong reason: say so instead.
 * @throws ToolError `invalid_patch` naming the file
 */
export function assertOneSectionPerFile(targets: readonly PatchTarget[]): void {
  const seen = new Set<string>();
  for (const target of targets) {
    const path = (target.new ?? target.old)!;
    if (seen.has(path.absolute)) {
      throw new ToolError({
        code: SandkitErrorCode.invalidPatch,
        message: `the diff has more than one "--- / +++" section for ${path.relative}; nothing was changed. Put all hunks for a file in one section, in file order, with line numbers of the original file`,
        details: { path: path.relative },
      });
    }
    seen.add(path.absolute);
  }
}
