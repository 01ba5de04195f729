/**
 * The files of a test patch as the official harness reads them: the `diff --git` headers (test
 * directives) and, per file, the source and target names of its `---`/`+++` lines (the test files
 * reset to `base_commit`). Semantics of SWE-bench v4.1.0 (726c5461e2ef52d83cf1ea2107870a8bb3328d57)
 * `swebench/harness/test_spec/python.py` (`get_test_directives`) and `swebench/harness/utils.py`
 * (`get_modified_files`, on the `unidiff` package's names).
 * @module
 */

/** One file of a patch, named as the diff names it (with its `a/` / `b/` prefix, or `/dev/null`). */
export interface PatchFileNames {
  /** Source name: `a/<path>`, or `/dev/null` for a new file. */
  source: string;
  /** Target name: `b/<path>`, or `/dev/null` for a deleted file. */
  target: string;
}

/**
 * The path after `b/` of every `diff --git a/… b/<path>` line, in patch order. As upstream's
 * regular expression: the header may start anywhere in a line, the path runs to the end of the line
 * (a `\r` included) and, when ` b/` occurs twice, the last one starts the path.
 */
export function diffHeaderPaths(patch: string): string[] {
  const paths: string[] = [];
  for (const match of patch.matchAll(/diff --git a\/[^\n]* b\/([^\n]*)/g)) paths.push(match[1]!);
  return paths;
}

/**
 * The source and target name of each file of a git patch: from its `diff --git` header, replaced
 * by the `---` / `+++` lines when present; `new file mode` makes the source `/dev/null` and
 * `deleted file mode` the target.
 */
export function patchFileNames(patch: string): PatchFileNames[] {
  const files: PatchFileNames[] = [];
  let current: PatchFileNames | undefined;
  let inHunks = false;
  for (const line of patch.split('\n')) {
    const header = /^diff --git (a\/[^\t\n]+) (b\/[^\t\n]+)/.exec(line);
    if (header !== null) {
      current = { source: header[1]!, target: header[2]! };
      files.push(current);
      inHunks = false;
    } else if (current === undefined || inHunks) {
      // before the first file, or hunk lines (a removed "-- x" line reads "--- x")
    } else if (line.startsWith('@@')) {
      inHunks = true;
    } else if (/^new file mode \d+/.test(line)) {
      current.source = '/dev/null';
    } else if (/^deleted file mode \d+/.test(line)) {
      current.target = '/dev/null';
    } else if (line.startsWith('--- ')) {
      current.source = line.slice(4).split('\t')[0]!;
    } else if (line.startsWith('+++ ')) {
      current.target = line.slice(4).split('\t')[0]!;
    }
  }
  return files;
}

/**
 * The files the evaluation script resets to `base_commit` before and after the tests
 * (`get_modified_files`): every file whose source is not `/dev/null`, without its `a/`.
 */
export function testPatchFiles(testPatch: string): string[] {
  return patchFileNames(testPatch)
    .map((file) => file.source)
    .filter((source) => source.startsWith('a/'))
    .map((source) => source.slice(2));
}

/**
 * `unidiff`'s `PatchedFile.path`: the source path, or the target path for a new file, without the
 * `a/` / `b/` prefix.
 */
export function patchFilePath(file: PatchFileNames): string {
  if (file.source.startsWith('a/') && (file.target.startsWith('b/') || file.target === '/dev/null')) {
    return file.source.slice(2);
  }
  if (file.target.startsWith('b/') && file.source === '/dev/null') return file.target.slice(2);
  return file.source;
}
