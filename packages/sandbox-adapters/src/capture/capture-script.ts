/**
 * The POSIX sh wrapper that runs one command where the sandbox is, with its output captured in a
 * log file there. Shared by the Docker adapter (plain execs and the long-lived channel) and usable
 * by any vendor whose transport is "run `sh -c` and read its stdout/stderr" (E2B).
 *
 * `sk_run nonce cwd shell stdin pidfile log cap mode drop [NAME=value…]` runs the command held in
 * `$sk_c` (fd 4 must be the transport's stdout). The command text travels in the environment
 * (`SK_C`), never in an argv, so `/proc/<pid>/cmdline` only shows it in the command's own shell.
 * - `drop` (a log base from an earlier run, or empty) is deleted first: log retention costs no
 *   round trip of its own.
 * - `cd cwd`, or report `Ed` (missing cwd). The log directory (`dirname log`) is made if missing.
 * - `setsid -f -w` starts `/bin/sh` as a new session leader (so the command and everything it
 *   starts share one process group that a kill from elsewhere ends as a whole) and waits for it.
 *   That shell prints `P<pid>` (the process-group id), exports the env, and `exec`s
 *   `<shell> -c <command>` with stdout appended to `<log>.out`, stderr to `<log>.err`, and stdin
 *   from `stdin` (or /dev/null). Nothing of the transport is left open in the command, so a
 *   background child that outlives the shell cannot hold the run: it only holds the log file.
 * - mode `0` (slices): once the shell has exited, `S<outBytes> <errBytes>` on stdout, then of each
 *   stream its head (the first `min(cap, size)` bytes) and its tail (the last
 *   `min(cap, size - head)` bytes), stdout's on stdout and stderr's on stderr. At most 2 × cap
 *   bytes per stream cross the transport, whatever the command printed.
 * - mode `1` (follow): the log files are followed while the command runs (new bytes every 50 ms,
 *   and at once when it exits), every byte goes out on the matching stream, then `S<out> <err>`.
 * - mode `2` (direct): for sandkit's own short scripts only: no session, no log; the script runs
 *   in a subshell writing straight to the transport (no `P` or `S` frame, exit status only), which
 *   saves the half-dozen process starts of the other modes. With stdin `-` the script reads the
 *   transport's own stdin (a channel request followed by a payload the script must consume whole).
 * - The running shell holds both logs open (fds 5 and 6) and reads them through `/proc/$$/fd`
 *   where there is one, so a command that removes its logs, or the whole log directory, still
 *   has its output returned.
 * - Both log files are removed when neither stream exceeds `cap` (the result holds them whole);
 *   otherwise they are kept for paging and the host deletes them later through `drop`.
 * - setsid passes a normal exit status through and reports a death by signal on its own stderr,
 *   which is captured (a command substitution), so `exit 9` and SIGKILL differ.
 * - It ends with `E<kind> <status> <tainted> <message>` on stdout and `E` on stderr:
 *   kind `x` exit, `s` signal (status = signal number), `d` cwd missing, `n` not started;
 *   tainted = 1 when processes of the command's group are still alive.
 *
 * Frames are `<nonce><type><text>\n` (see command-frame-parser.ts). Needs `setsid` (util-linux),
 * `head -c`, `tail -c +N`, `wc -c` and a `sleep` that takes fractions (GNU coreutils, BusyBox).
 * @module
 */

const inner = [
  'n=$1 pf=$2 lg=$3 c=$SK_C; shift 3; unset SK_C',
  '[ -z "$pf" ] || echo $$ >"$pf"',
  `printf '%sP%s\\n' "$n" $$`,
  'for kv do export "$kv"; done',
  'exec >>"$lg.out" 2>>"$lg.err" 3>&- "$0" -c "$c"',
].join('; ');

/** Defines `sk_run` and its helpers (see the module doc). */
export const runFunction = `sk_inner='${inner.replaceAll("'", `'\\''`)}'
sk_nl='
'
sk_start() {
  l=$(SK_C=$sk_c setsid -f -w /bin/sh -c "$sk_inner" "$x" "$n" "$pf" "$lg" "$@" 3>&2 2>&1 1>&4 4>&- 5<&- 6<&- <"\${i:-/dev/null}")
}
sk_more() {
  m=$(($(wc -c <"$sk_O"))); if [ "$m" -gt "$so" ]; then tail -c +$((so + 1)) "$sk_O" | head -c $((m - so)); so=$m; fi
  m=$(($(wc -c <"$sk_E"))); if [ "$m" -gt "$se" ]; then tail -c +$((se + 1)) "$sk_E" | head -c $((m - se)) >&2; se=$m; fi
}
sk_follow() {
  sk_d=
  trap 'sk_d=1' USR1
  ( sk_start "$@"; printf '%s %s\\n' $? "\${l%%"$sk_nl"*}" >"$lg.st"; kill -USR1 $$ ) &
  sk_w=$!
  while [ -z "$sk_d" ]; do
    sk_more
    [ -n "$sk_d" ] || { sleep 0.05 </dev/null >/dev/null 2>&1 & wait $!; }
  done
  wait $sk_w
  trap - USR1
  sk_more
  read -r s l <"$lg.st"; rm -f -- "$lg.st"
}
sk_slices() {
  h=$3; [ "$2" -lt "$h" ] && h=$2
  [ "$h" -gt 0 ] && head -c "$h" "$1"
  r=$(($2 - h)); [ "$r" -gt "$3" ] && r=$3
  [ "$r" -gt 0 ] && tail -c +$(($2 - r + 1)) "$1" | head -c "$r"
  return 0
}
sk_run() {
  n=$1 d=$2 x=$3 i=$4 pf=$5 lg=$6 cap=$7 live=$8; [ -z "$9" ] || rm -f -- "$9.out" "$9.err"
  shift 9; s=0 k=x l= t=0 so=0 se=0
  [ -z "$pf" ] || : >"$pf"
  if ! cd "$d" 2>/dev/null; then k=d
  elif [ "$live" = 2 ] && [ "$i" = - ]; then ( eval "$sk_c" ); s=$?
  elif [ "$live" = 2 ]; then ( eval "$sk_c" ) <"\${i:-/dev/null}"; s=$?
  elif ! command -v setsid >/dev/null 2>&1; then k=n s=127 l='setsid not found: install util-linux in the image'
  elif ! { { [ -d "\${lg%/*}" ] || mkdir -p -- "\${lg%/*}"; } && : >"$lg.out" && : >"$lg.err"; } 2>/dev/null; then
    k=n s=126 l="cannot write the output log $lg.out: make \${lg%/*} writable for the sandbox user"
  else
    exec 5<"$lg.out" 6<"$lg.err"; sk_O=$lg.out sk_E=$lg.err
    [ -r /proc/$$/fd/5 ] && sk_O=/proc/$$/fd/5 sk_E=/proc/$$/fd/6
    if [ "$live" = 1 ]; then sk_follow "$@"; else sk_start "$@"; s=$?; fi
    l=\${l%%"$sk_nl"*}
    case $l in "") ;; "setsid: child "*) k=s l=;; *) k=n;; esac
    if [ -n "$pf" ]; then pg=; read -r pg <"$pf"; [ -n "$pg" ] && kill -0 -"$pg" 2>/dev/null && t=1; fi
    if [ "$live" != 1 ] && { [ -s "$sk_O" ] || [ -s "$sk_E" ]; }; then set -- $(wc -c "$sk_O" "$sk_E"); so=$1 se=$3; fi
    printf '%sS%s %s\\n' "$n" "$so" "$se"
    if [ "$live" != 1 ]; then sk_slices "$sk_O" "$so" "$cap"; sk_slices "$sk_E" "$se" "$cap" >&2; fi
    exec 5<&- 6<&-
    [ "$so" -gt "$cap" ] || [ "$se" -gt "$cap" ] || rm -f -- "$lg.out" "$lg.err"
  fi
  printf '%sE%s %s %s %s\\n' "$n" "$k" "$s" "$t" "$l"
  printf '%sE\\n' "$n" >&2
}
`;

/**
 * Script of a plain run: `sh -c <script> sandkit <sk_run arguments…>` with the command in the
 * environment as `SK_C`. Removes its stdin file (when one was given) and exits with the
 * command's status.
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
