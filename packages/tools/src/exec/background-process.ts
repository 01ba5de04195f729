/**
 * Background commands, built only on the contract's `exec`, so every adapter gets them. A command
 * starts as `setsid sh -c '( CMD ); echo $? > EXIT' > LOG 2>&1 < /dev/null &`: it leads its own
 * session and process group (pgid = pid), its output goes to `<root>/.sandkit/exec/bg-<id>.log`,
 * its pid to `bg-<id>.pid`, and its exit status to `bg-<id>.exit` when it ends. State lives in the
 * sandbox, not in this process, so any tool instance over the same sandbox can read or kill it.
 * Liveness uses `kill -0` and `/proc/<pid>/stat` read by one grep (a zombie is not running), never procps.
 * @module
 */
import { formatCommand, type SandboxClient, SandkitErrorCode, ToolError } from '@sandkit/core';
import type { ToolContext } from '../workspace/coding-tool-options.js';
import { resolveRoot } from '../workspace/resolve-path.js';
import type { ExecBackendSet } from './exec-backends.js';
import { ensureLogDirScript, execLogDir, newOutputId } from './exec-log-dir.js';

/** Sandbox paths of one background command's files. */
export interface BackgroundFiles {
  log: string;
  pid: string;
  exit: string;
  /** The log path relative to the root, for read_file. */
  relativeLog: string;
}

/** The files of background command `id` under `root`. */
export function backgroundFiles(root: string, id: string): BackgroundFiles {
  const dir = execLogDir(root);
  const base = `${dir}/bg-${id}`;
  return {
    log: `${base}.log`,
    pid: `${base}.pid`,
    exit: `${base}.exit`,
    relativeLog: `${base.slice(root.length).replace(/^\//, '')}.log`,
  };
}

/** Starts `command` detached in `cwd`; returns the local id (without backend prefix) and its files. */
export async function startBackground(
  client: SandboxClient,
  command: string,
  options: { cwd: string; root: string },
): Promise<{ id: string; files: BackgroundFiles }> {
  const id = newOutputId();
  const files = backgroundFiles(options.root, id);
  const exitTmp = `${files.exit}.tmp`;
  const inner = `(\n${command}\n)\ns=$?; echo "$s" > ${formatCommand([exitTmp])} && mv -f ${formatCommand([exitTmp, files.exit])}`;
  const script = [
    ensureLogDirScript(options.root),
    'command -v setsid > /dev/null 2>&1 || { echo "setsid not found" >&2; exit 127; }',
    `${formatCommand(['setsid', 'sh', '-c', inner])} > ${formatCommand([files.log])} 2>&1 < /dev/null &`,
    `echo $! > ${formatCommand([files.pid])}; echo $!`,
  ].join('\n');
  const result = await client.exec(script, { cwd: options.cwd, maxOutputBytes: 4096 });
  if (result.exitCode !== 0 || !/^\d+\n?$/.test(result.stdout)) {
    throw new ToolError({
      code: SandkitErrorCode.commandFailed,
      message: `could not start the background command: ${result.stderr.trim() || `exit ${result.exitCode}`}`,
      details: { exitCode: result.exitCode },
    });
  }
  return { id, files };
}

/**
 * Shell functions over `$pid`: `alive` is true while any non-zombie process of group `$pid`
 * exists (from /proc; `kill -0 -$pid` where /proc is missing); `leader_alive` for the pid itself.
 */
export const livenessFunctions = [
  'alive() { kill -s 0 -- "-$pid" 2>/dev/null || return 1; [ -r /proc/self/stat ] || return 0; grep -qsE "\\) [^Z] -?[0-9]+ $pid " /proc/[0-9]*/stat; }',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansion, not a template
  'leader_alive() { kill -0 "$pid" 2>/dev/null || return 1; l=; { read -r l < "/proc/$pid/stat"; } 2>/dev/null || return 0; r=${l##*) }; [ "${r%% *}" != Z ]; }',
].join('\n');

const processIdPattern = /^(?:([a-z][a-z0-9_-]{0,31})\.)?([0-9a-f]{12})$/;

/** A process id as the model sees it: `<hex>` or `<backend>.<hex>` when backends are configured. */
export function formatProcessId(backends: ExecBackendSet, backend: string, id: string): string {
  return backends.configured ? `${backend}.${id}` : id;
}

/**
 * Splits a model-supplied process id into its backend and local id.
 * @throws ToolError `unknown_process` when the id is malformed or names no backend.
 */
export function parseProcessId(backends: ExecBackendSet, processId: string): { backend: string; id: string } {
  const match = processIdPattern.exec(processId);
  const backend = match?.[1] ?? backends.defaultName;
  if (!match || !backends.byName.has(backend)) throw unknownProcess(processId);
  return { backend, id: match[2] as string };
}

/** A background command found from the model's process id, ready for a script over its files. */
export interface LocatedBackground {
  /** The context of the backend it runs on. */
  context: ToolContext;
  files: BackgroundFiles;
  /**
   * Script lines that print `unknown` and exit 0 when no pid file exists, else set `$pid`
   * (put {@link livenessFunctions} and the tool's own lines after them).
   */
  prelude: string[];
}

/**
 * Finds the backend context and files of model-supplied `processId` (read_output, kill_process).
 * @param contexts one per backend, from `backendContexts`
 * @throws ToolError `unknown_process` when the id is malformed or names no backend.
 */
export async function locateBackground(
  backends: ExecBackendSet,
  contexts: Map<string, ToolContext>,
  processId: string,
): Promise<LocatedBackground> {
  const { backend, id } = parseProcessId(backends, processId);
  const context = contexts.get(backend) as ToolContext;
  const files = backgroundFiles(await resolveRoot(context), id);
  const pidFile = formatCommand([files.pid]);
  return {
    context,
    files,
    prelude: [`[ -f ${pidFile} ] || { echo unknown; exit 0; }`, `pid=$(cat ${pidFile})`],
  };
}

/** The ToolError for a process id that was never started here. */
export function unknownProcess(processId: string): ToolError {
  return new ToolError({
    code: SandkitErrorCode.unknownProcess,
    message: `no background command has id "${processId}"; use the processId returned by exec with background: true`,
    details: { processId },
  });
}
