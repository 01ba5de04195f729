/**
 * The POSIX sh scripts the E2B adapter runs through envd (the SDK wraps each in `bash -l -c`).
 *
 * Output is captured where the command runs, in the design of `../capture/` (see its module
 * docs): the command's stdout and stderr go to `<log>.out` / `<log>.err` under
 * {@link execDir}, never to envd's pipes. So a background child that keeps running holds a file,
 * not the stream, and the call returns when the command ends (envd sends `end` only at pipe EOF).
 * The SDK decodes envd's output as UTF-8 text, so every byte that crosses is base64 (exact
 * bytes, whatever the command printed):
 * - with streaming callbacks, the wrapper follows both logs every 50 ms and prints each new piece
 *   as a line `o<base64>` or `e<base64>` on its stdout;
 * - when the command ends, one record: a line `<token> <exit|signal|cwd> <n> <out bytes> <err bytes>`,
 *   then base64 lines of stdout's head (first `cap` bytes), stderr's head, stdout's tail and
 *   stderr's tail (the last `min(cap, bytes - cap)` bytes of a cut stream, else empty). When those
 *   four slices pass {@link inlineSliceBytes}, they go raw to `<base>.slices` instead, the line ends
 *   with `file <4 lengths>` and the four lines are empty: the adapter reads that file with envd's
 *   `GET /files` (raw bytes, no base64) and removes it.
 * Logs are removed unless a stream was cut; cut ones stay (`ExecResult.outputLog`) until a later
 * run drops them (`OutputLogRetention`) or the sandbox ends.
 *
 * The command runs under `setsid` (its own process group, id written to `<base>.pgid`) and carries
 * `SANDKIT_EXEC_ID=<id>` in its environment, so {@link killScript} finds every process it started,
 * even before the group id is written or after a child left the group.
 * @module
 */
import { formatCommand, quoteShellArgument } from '@sandkit/core';

/** Directory inside the sandbox for capture files (as the Docker adapter's). */
export const execDir = '/tmp/sandkit-exec';

/** What one wrapper needs. */
export interface WrapperInput {
  /** Random hex id of this call. */
  id: string;
  /** Marks the result record; random per call. */
  token: string;
  command: string;
  cwd: string;
  shell: 'sh' | 'bash';
  env: Readonly<Record<string, string>>;
  /** `true` when `<base>.in` was uploaded as stdin. */
  stdin: boolean;
  /** `true` to follow the logs onto the stream as they grow. */
  stream: boolean;
  maxOutputBytes: number;
  /** Log base (`<log>.out`, `<log>.err`). */
  log: string;
  /** Log base of an older run to delete first. */
  drop: string | undefined;
  /** POSIX sh run first, printing nothing: the sweep of abandoned staging files, if any are due. */
  sweep?: string | undefined;
}

/** The base path of a call's control files (stdin, status, pgid). */
export function execBase(id: string): string {
  return `${execDir}/${id}`;
}

/** The wrapper that runs one command and prints its result record. */
export function wrapperScript(input: WrapperInput): string {
  const q = quoteShellArgument;
  const inner = `__sandkit_status=$2; trap '{ echo $? > "$__sandkit_status"; } 2>/dev/null' EXIT; eval "$1"`;
  const env = Object.entries({ ...input.env, SANDKIT_EXEC_ID: input.id }).map(
    ([name, value]) => `${name}=${value}`,
  );
  const run = formatCommand([
    'env',
    '--',
    ...env,
    'setsid',
    input.shell,
    '-c',
    inner,
    input.shell,
    input.command,
    `${execBase(input.id)}.status`,
  ]);
  return [
    `b=${q(execBase(input.id))}; lg=${q(input.log)}`,
    `mkdir -p ${execDir} 2>/dev/null; [ -w ${execDir} ] || { printf '\\n%s nolog 0 0 0\\n\\n\\n\\n\\n' ${q(input.token)}; exit 0; }`,
    ...(input.drop === undefined ? [] : [`rm -f ${q(`${input.drop}.out`)} ${q(`${input.drop}.err`)}`]),
    ...(input.sweep === undefined ? [] : [input.sweep]),
    `cd -- ${q(input.cwd)} 2>/dev/null || { printf '\\n%s cwd 0 0 0\\n\\n\\n\\n\\n' ${q(input.token)}; exit 0; }`,
    // The wrapper holds both logs open (fds 7 and 8) and reads them through /proc/$$/fd, so a
    // command that removes them, or the whole log directory, still has its output returned.
    ': > "$lg.out"; : > "$lg.err"; exec 7< "$lg.out" 8< "$lg.err"',
    '__O="$lg.out"; __E="$lg.err"; [ -r /proc/$$/fd/7 ] && __O=/proc/$$/fd/7 && __E=/proc/$$/fd/8',
    // Appended, not truncated: ext4 (auto_da_alloc) flushes a file truncated to zero when it is
    // closed, which made 1 GiB of output cost ~0.5 s more; the logs were just made empty anyway.
    `${run} < ${input.stdin ? '"$b.in"' : '/dev/null'} >> "$lg.out" 2>> "$lg.err" 7<&- 8<&- &`,
    '__p=$!',
    'echo "$__p" > "$b.pgid"',
    ...(input.stream
      ? [
          'so=0; se=0',
          `__more() { m=$(($(wc -c < "$__O"))); if [ $m -gt $so ]; then printf o; tail -c +$((so + 1)) "$__O" | head -c $((m - so)) | base64 -w 0; echo; so=$m; fi; m=$(($(wc -c < "$__E"))); if [ $m -gt $se ]; then printf e; tail -c +$((se + 1)) "$__E" | head -c $((m - se)) | base64 -w 0; echo; se=$m; fi; }`,
          // A zombie still answers kill -0: read the state from /proc instead (comm is sh or bash).
          '__alive() { __st=; read -r _ _ __st _ < /proc/$__p/stat 2>/dev/null && [ "$__st" != Z ]; }',
          'while __alive; do __more; sleep 0.05; done',
        ]
      : []),
    '{ wait "$__p"; } 2>/dev/null; __s=$?',
    ...(input.stream ? ['__more'] : []),
    // No status file (the command removed it, or was killed before its EXIT trap): wait's status.
    'if [ -f "$b.status" ]; then __k=exit; __c=$(cat "$b.status"); elif [ $__s -gt 128 ]; then __k=signal; __c=$((__s - 128)); else __k=exit; __c=$__s; fi',
    `mkdir -p ${execDir} 2>/dev/null`,
    printRecord(input.token, input.maxOutputBytes),
    'rm -f "$b.status" "$b.pgid" "$b.in"',
    'exit 0',
  ].join('\n');
}

/** What a kill needs. */
export interface KillInput {
  id: string;
  /** envd pid of the wrapper, when the stream reported it. */
  wrapperPid: number | undefined;
  graceMs: number;
  /**
   * When the stream is already gone: also SIGKILL the wrapper and print the result record from the
   * logs, then remove the control files.
   */
  collect?: { token: string; maxOutputBytes: number; log: string };
}

/**
 * TERM the command's group and every process marked with its id, wait up to the grace, KILL, and
 * print `gone` or `alive` last. Waits for the group id while the wrapper still runs, so a timeout
 * that fires before the wrapper wrote it still ends the whole command.
 */
export function killScript(input: KillInput): string {
  const q = quoteShellArgument;
  const steps = Math.max(1, Math.ceil(input.graceMs / 100));
  const wrapper = input.wrapperPid === undefined ? '' : String(input.wrapperPid);
  const lines = [
    `b=${q(execBase(input.id))}; w=${wrapper}`,
    'i=0; while [ ! -s "$b.pgid" ] && [ $i -lt 250 ] && [ -n "$w" ] && kill -0 "$w" 2>/dev/null; do sleep 0.02; i=$((i+1)); done',
    'pg=$(cat "$b.pgid" 2>/dev/null)',
    `marked() { grep -l -a -F -e 'SANDKIT_EXEC_ID=${input.id}' /proc/[0-9]*/environ 2>/dev/null | sed 's,^/proc/,,;s,/environ$,,'; }`,
    'sig() { [ -n "$pg" ] && kill -"$1" -- "-$pg" 2>/dev/null; for x in $(marked); do kill -"$1" "$x" 2>/dev/null; done; }',
    'alive() { { [ -n "$pg" ] && kill -0 -- "-$pg" 2>/dev/null; } || [ -n "$(marked)" ]; }',
    'sig TERM',
    `i=0; while [ $i -lt ${steps} ] && alive; do sleep 0.1; i=$((i+1)); done`,
    'sig KILL',
    'i=0; while [ $i -lt 50 ] && alive; do sleep 0.1; sig KILL; i=$((i+1)); done',
  ];
  if (input.collect) {
    lines.push(
      `lg=${q(input.collect.log)}`,
      '[ -n "$w" ] && kill -KILL "$w" 2>/dev/null',
      '__k=signal; __c=9; touch "$lg.out" "$lg.err"; rm -f "$b.slices"; __O="$lg.out"; __E="$lg.err"',
      printRecord(input.collect.token, input.collect.maxOutputBytes),
      'rm -f "$b.status" "$b.pgid" "$b.in"',
    );
  }
  lines.push('alive && echo alive || echo gone');
  return lines.join('\n');
}

/**
 * Head and tail bytes (both streams together) that still come back inline in the record. Inline
 * bytes cross envd as base64 inside envd's own base64 (16/9 of their size); at this size the
 * encoding adds at most 50 KiB, less than one more request costs over the internet. Above it, the
 * slices go to a file that the adapter reads raw (`GET /files`) and removes.
 */
export const inlineSliceBytes = 64 * 1024;

/** The file where a record too big to come back inline leaves its slices (see {@link printRecord}). */
export function slicesPath(id: string): string {
  return `${execBase(id)}.slices`;
}

/**
 * Prints the record from the logs `$__O`/`$__E` (the wrapper's open fds, or `$lg.out`/`$lg.err`)
 * and `$__k`/`$__c` (needs `$b`, the call's base): the
 * counts, then the four slices (stdout's head, stderr's head, stdout's tail, stderr's tail; a tail
 * is the last `min(cap, bytes - cap)` bytes of a cut stream, else empty). Up to
 * {@link inlineSliceBytes} in all they come inline, one base64 line each; above it they are written
 * back to back to `$b.slices`, the header line ends with `file` and each slice's measured length,
 * and the four lines are empty. A cut stream's logs are kept; otherwise both are removed.
 */
function printRecord(token: string, max: number): string {
  const q = quoteShellArgument;
  return [
    '__o=$(($(wc -c < "$__O"))); __e=$(($(wc -c < "$__E")))',
    `__ho=$__o; [ $__ho -gt ${max} ] && __ho=${max}; __to=$((__o - __ho)); [ $__to -gt ${max} ] && __to=${max}`,
    `__he=$__e; [ $__he -gt ${max} ] && __he=${max}; __te=$((__e - __he)); [ $__te -gt ${max} ] && __te=${max}`,
    `if [ $((__ho + __he + __to + __te)) -gt ${inlineSliceBytes} ]; then`,
    // `__put head|tail -c <n> <log>` appends one slice (nothing to run when n is 0) and records its
    // length as measured, not assumed: a background child may still change a log.
    '  __f="$b.slices"; __l=',
    '  __put() { [ "$3" -gt 0 ] && "$@" >> "$__f" && __n=$(($(wc -c < "$__f"))); __l="$__l $((__n - __m))"; __m=$__n; }',
    '  : > "$__f"; __m=0; __n=0',
    '  __put head -c $__ho "$__O"; __put head -c $__he "$__E"',
    '  __put tail -c $__to "$__O"; __put tail -c $__te "$__E"',
    `  printf '\\n%s %s %s %s %s file%s\\n\\n\\n\\n\\n' ${q(token)} "$__k" "$__c" $__o $__e "$__l"`,
    'else',
    `  printf '\\n%s %s %s %s %s\\n' ${q(token)} "$__k" "$__c" $__o $__e`,
    '  head -c $__ho "$__O" | base64 -w 0; echo',
    '  head -c $__he "$__E" | base64 -w 0; echo',
    '  [ $__to -gt 0 ] && tail -c $__to "$__O" | base64 -w 0; echo',
    '  [ $__te -gt 0 ] && tail -c $__te "$__E" | base64 -w 0; echo',
    'fi',
    `if [ $__o -le ${max} ] && [ $__e -le ${max} ]; then rm -f "$lg.out" "$lg.err"; fi`,
  ].join('\n');
}
