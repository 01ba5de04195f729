/**
 * The exit statuses of the Docker adapter's write scripts.
 * @module
 */

/**
 * Exit statuses of the write scripts (channel-write.ts's and finish-write-script.ts's), mapped to errors in
 * docker-files.ts: the target is a directory; its mode could not be read or set; the rename failed;
 * the sandbox user may not write the target's directory; its parents could not be made; the path's
 * symlinks did not end within 40 links (follow-links-script.ts).
 */
export const writeExit = {
  isDirectory: 21,
  mode: 23,
  move: 24,
  unwritable: 25,
  parents: 26,
  linkLoop: 27,
} as const;
