/**
 * The POSIX sh code that runs one command inside the container, shared by plain execs and the
 * long-lived channel.
 *
 * `sk_run nonce cwd shell stdin pidfile [NAME=value…]` runs the command held in `$sk_c` (fd 4 must
 * be the real stdout). The command text travels in the environment (`SK_C`), never in an argv, so
 * `pgrep -f` or `/proc/<pid>/cmdline` only ever show it in the command's own shell, as locally.
 * - `cd cwd`, or report `Ed` (missing cwd);
 * - `setsid -f -w` starts `/bin/sh` as a new session leader (so the command and everything it
 *   starts share one process group that a kill from another exec ends as a whole) and waits for
 *   it. That shell prints `P<pid>` (the process-group id), exports the env, and `exec`s
 *   `<shell> -c <command>` with stdin from `stdin` (or /dev/null, so the command sees EOF at once).
 * - setsid passes a normal exit status through and reports a death by signal on its own stderr,
 *   which is captured (a command substitution, no temp file), so `exit 9` and SIGKILL differ.
 * - It ends with `E<kind> <status> <tainted> <message>` on stdout and `E` on stderr:
 *   kind `x` exit, `s` signal (status = signal number), `d` cwd missing, `n` not started;
 *   tainted = 1 when processes of the command's group are still alive (they may hold the streams).
 * @module
 */

const inner = [
  'n=$1 pf=$2 c=$SK_C; shift 2; unset SK_C',
  '[ -z "$pf" ] || echo $$ >"$pf"',
  `printf '%sP%s\\n' "$n" $$`,
  'for kv do export "$kv"; done',
  'exec 2>&3 3>&- "$0" -c "$c"',
].join('; ');

/** Defines `sk_run` (see the module doc). */
export const runFunction = `sk_inner='${inner.replaceAll("'", `'\\''`)}'
sk_nl='
'
sk_run() {
  n=$1 d=$2 x=$3 i=$4 pf=$5; shift 5; s=0 k=x l= t=0
  [ -z "$pf" ] || : >"$pf"
  if ! cd "$d" 2>/dev/null; then k=d
  elif ! command -v setsid >/dev/null 2>&1; then k=n s=127 l='setsid not found: install util-linux in the image'
  else
    l=$(SK_C=$sk_c setsid -f -w /bin/sh -c "$sk_inner" "$x" "$n" "$pf" "$@" 3>&2 2>&1 1>&4 4>&- <"\${i:-/dev/null}")
    s=$?
    l=\${l%%"$sk_nl"*}
    case $l in "") ;; "setsid: child "*) k=s l=;; *) k=n;; esac
    if [ -n "$pf" ]; then pg=; read -r pg <"$pf"; [ -n "$pg" ] && kill -0 -"$pg" 2>/dev/null && t=1; fi
  fi
  printf '%sE%s %s %s %s\\n' "$n" "$k" "$s" "$t" "$l"
  printf '%sE\\n' "$n" >&2
}
`;

/**
 * Script of a plain exec: `sh -c <script> sandkit <sk_run arguments…>` with the command in the
 * exec's environment as `SK_C`. Removes its stdin file
 * (when one was given) and exits with the command's status.
 */
export const plainExecScript = `exec 4>&1\n${runFunction}sk_c=$SK_C; unset SK_C; sk_run "$@"; [ -z "$4" ] || rm -f -- "$4"; exit "$s"\n`;

/**
 * Script of a channel: reads requests from stdin, each a block of sh lines ended by a line that is
 * exactly the nonce (`$1`), and evaluates it (the host sends `sk_c=<command>` and `sk_run …` with
 * quoted arguments, or `exit`). Ends at EOF.
 */
export const channelScript = `exec 4>&1\n${runFunction}N=$1
while :; do
  q=
  while IFS= read -r L || exit 0; [ "$L" != "$N" ]; do q="$q$L
"; done
  eval "$q"
done
`;
