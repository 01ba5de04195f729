/**
 * The in-container half of a large Docker writeFile (archive-write.ts): a POSIX sh script, run as
 * the sandbox user, that makes the parents, checks, keeps the mode and renames the uploaded temp
 * file over the target. The command channel's shell defines it once as the function `sk_write`
 * (exec-channel.ts), so a channel request carries only its arguments; a plain exec runs its text.
 *
 * Arguments: `$1` temp path, `$2` target, `$3` `1` = keep an existing file's mode, `$4` the mode
 * the temp file was put with (octal), `$5` the host's answer (`go`: the upload answered 200, `no`:
 * it did not, or was aborted; empty: read it as one line from stdin, after the checks), `$6` `1` =
 * print `R<status>` once the checks are done (the host waits for it before uploading).
 *
 * - Symlinks at the end of `$2` are followed (follow-links-script.ts): the link stays and the file
 *   it leads to is replaced, or created for a dangling link. When that file is in another directory
 *   than the upload, the temp file is first moved beside it, so the last rename stays atomic.
 * - Checks, as the sandbox user: the target is not a directory; its parents (and the upload's
 *   directory) exist or are made; the user may write both directories (`test -w`; the engine
 *   writes as root).
 * - For an existing file, while the bytes upload: its mode (`stat -L`, so through a symlink);
 *   `chmod` then runs only when it differs from `$4`. A regular file over
 *   {@link deferredUnlinkMinBytes} is held open by a background `sleep` through the rename and
 *   that `sleep` is ended right after it: the last close frees the file's blocks in that process
 *   after the write has returned, where `rename` over it would free them itself (~0.7 ms per MiB
 *   on ext4 under overlayfs). Nothing is named, so nothing is left if the container dies; a
 *   `sleep` left unended lets go after {@link unlinkHoldSeconds}.
 * - `mv -f` renames the temp file over the target: a reader sees the old bytes or the new.
 * - Any failure, or an answer other than `go`, removes the temp file. The script reads its line
 *   before it exits whatever the checks found, so the channel's shell never takes it for a request.
 * - Exits 0, or one of {@link writeExit} (with the failing command's message on stderr).
 * @module
 */
import { followLinksScript } from '../paths/follow-links-script.js';
import { writeExit } from './write-exit.js';

/** An existing regular file larger than this many bytes is freed after the write returns. */
export const deferredUnlinkMinBytes = 4 * 1024 * 1024;

/** Longest time a replaced file is held open when the script is cut off before it ends the hold. */
export const unlinkHoldSeconds = 30;

/** The script's text (see the module doc for its arguments). */
export const finishWriteScript = `t=$1 d=$2 keep=$3 pm=$4 g=$5 e=0 m= h=
p=\${d%/*}; [ -n "$p" ] || p=/
${followLinksScript('d', `e=${writeExit.linkLoop}`)}
q=\${d%/*}; [ -n "$q" ] || q=/
if [ $e != 0 ]; then :
elif [ -d "$d" ]; then e=${writeExit.isDirectory}
elif ! { [ -d "$p" ] || mkdir -p -- "$p"; } || ! { [ -d "$q" ] || mkdir -p -- "$q"; }; then e=${writeExit.parents}
elif [ ! -w "$p" ] || [ ! -w "$q" ]; then e=${writeExit.unwritable}
fi
[ "$6" != 1 ] || echo R$e
if [ $e = 0 ] && [ "$g" != no ] && [ -f "$d" ]; then
  if i=$(stat -L -c '%a %s' -- "$d"); then
    [ "$keep" = 1 ] && m=\${i% *}
    [ -L "$d" ] || [ "\${i#* }" -le ${deferredUnlinkMinBytes} ] || { sleep ${unlinkHoldSeconds} 2>/dev/null 3<"$d" </dev/null >/dev/null 4>&- & h=$!; }
  else e=${writeExit.mode}; fi
fi
[ -n "$g" ] || read -r g || g=
if [ "$g" = go ] && [ $e = 0 ]; then
  if [ -n "$m" ] && [ "$m" != "$pm" ]; then chmod "$m" -- "$t" || e=${writeExit.mode}; fi
  if [ $e = 0 ] && [ "$q" != "$p" ]; then mv -f -- "$t" "$q/\${t##*/}" && t=$q/\${t##*/} || e=${writeExit.move}; fi
  [ $e != 0 ] || mv -f -- "$t" "$d" || e=${writeExit.move}
fi
[ -z "$h" ] || kill $h 2>/dev/null
[ "$g" = go ] && [ $e = 0 ] || rm -f -- "$t"
exit $e`;

/** Defines `sk_write` (the script as a function) for the channel's shell. */
export const finishWriteFunction = `sk_write() {\n${finishWriteScript}\n}\n`;

/** The statuses the script exits with by itself; any other means it was cut off (killed). */
export const finishWriteExits: ReadonlySet<number> = new Set([0, ...Object.values(writeExit)]);
