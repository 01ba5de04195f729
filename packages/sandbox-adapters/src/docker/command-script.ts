/**
 * The POSIX sh code that runs one command inside the container, shared by plain execs and the
 * long-lived channel.
 *
 * `sk_run nonce cwd command shell stdin pidfile sigfile [NAME=value…]`:
 * - `cd cwd`, or report `Ed` (missing cwd);
 * - `setsid -f -w` starts `/bin/sh` as a new session leader (so the command and everything it
 *   starts share one process group that a kill from another exec ends as a whole) and waits for
 *   it. That shell prints `P<pid>` (the process-group id), exports the env, and `exec`s
 *   `<shell> -c <command>` with stdin from `stdin` (or /dev/null, so the command sees EOF at once).
 * - setsid passes a normal exit status through and reports a death by signal on its own stderr
 *   (the sig file), which is how `exit 9` and SIGKILL are told apart.
 * - It ends with `E<kind> <status> <tainted> <message>` on stdout and `E` on stderr:
 *   kind `x` exit, `s` signal (status = signal number), `d` cwd missing, `n` not started;
 *   tainted = 1 when processes of the command's group are still alive (they may hold the streams).
 * @module
 */

const inner = [
  'n=$1 pf=$2 c=$3; shift 3',
  '[ -z "$pf" ] || echo $$ >"$pf"',
  `printf '%sP%s\\n' "$n" $$`,
  'for kv do export "$kv"; done',
  'exec 2>&3 3>&- "$0" -c "$c"',
].join('; ');

/** Defines `sk_run` (see the module doc). */
export const runFunction = `sk_inner='${inner.replaceAll("'", `'\\''`)}'
sk_run() {
  n=$1 d=$2 c=$3 x=$4 i=$5 pf=$6 sf=$7; shift 7; s=0 k=x l= t=0
  [ -z "$pf" ] || : >"$pf"
  if ! cd "$d" 2>/dev/null; then k=d
  elif ! command -v setsid >/dev/null 2>&1; then k=n s=127 l='setsid not found: install util-linux in the image'
  else
    setsid -f -w /bin/sh -c "$sk_inner" "$x" "$n" "$pf" "$c" "$@" 3>&2 2>"$sf" <"\${i:-/dev/null}"
    s=$?
    if [ -s "$sf" ]; then IFS= read -r l <"$sf"; case $l in "setsid: child "*) k=s l=;; *) k=n;; esac; fi
    if [ -n "$pf" ]; then pg=; read -r pg <"$pf"; [ -n "$pg" ] && kill -0 -"$pg" 2>/dev/null && t=1; fi
  fi
  printf '%sE%s %s %s %s\\n' "$n" "$k" "$s" "$t" "$l"
  printf '%sE\\n' "$n" >&2
}
`;

/**
 * Script of a plain exec: `sh -c <script> sandkit <sk_run arguments…>`. Removes its sig file
 * and stdin file, and exits with the command's status.
 */
export const plainExecScript = `${runFunction}sk_run "$@"; rm -f -- "$7" \${5:+"$5"}; exit "$s"\n`;

/**
 * Script of a channel: reads requests from stdin, each a block of sh lines ended by a line that is
 * exactly the nonce (`$1`), and evaluates it (the host sends `sk_run …` with quoted arguments, or
 * `exit`). Ends at EOF.
 */
export const channelScript = `${runFunction}N=$1
while :; do
  q=
  while IFS= read -r L || exit 0; [ "$L" != "$N" ]; do q="$q$L
"; done
  eval "$q"
done
`;
