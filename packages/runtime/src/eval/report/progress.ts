/**
 * Progress of a run: a cli-progress bar on a terminal, one line per finished instance otherwise
 * (logs, CI). Both write to the given stream (stderr in the CLI), never to stdout.
 * @module
 */
import cliProgress from 'cli-progress';
import type { InstanceResult } from '../instance/eval-result.js';

/** Receives run events. */
export interface EvalProgress {
  /** The run starts `total` instances (after resume skipped the finished ones). */
  start(total: number): void;
  /** One instance finished. */
  finished(result: InstanceResult): void;
  /** A free-form notice (resume, partial lines, interrupt). */
  notice(message: string): void;
  stop(): void;
}

/** A progress reporter that prints nothing. */
export const silentProgress: EvalProgress = { start() {}, finished() {}, notice() {}, stop() {} };

/** A bar when `stream.isTTY`, else one line per instance. */
export function createStreamProgress(stream: NodeJS.WriteStream): EvalProgress {
  return stream.isTTY ? barProgress(stream) : lineProgress(stream);
}

function describe(result: InstanceResult): string {
  const kind = result.error_kind === undefined ? '' : ` (${result.error_kind})`;
  return `${result.instance_id} ${result.status}${kind} in ${(result.duration_ms / 1000).toFixed(1)} s`;
}

function lineProgress(stream: NodeJS.WritableStream): EvalProgress {
  let done = 0;
  let total = 0;
  return {
    start(count) {
      total = count;
    },
    finished(result) {
      done += 1;
      stream.write(`[${done}/${total}] ${describe(result)}\n`);
    },
    notice(message) {
      stream.write(`${message}\n`);
    },
    stop() {},
  };
}

function barProgress(stream: NodeJS.WriteStream): EvalProgress {
  const bar = new cliProgress.SingleBar(
    { stream, format: 'eval [{bar}] {value}/{total} | resolved {resolved} | {last}', hideCursor: true },
    cliProgress.Presets.shades_classic,
  );
  let resolved = 0;
  return {
    start(total) {
      bar.start(total, 0, { resolved, last: '' });
    },
    finished(result) {
      if (result.status === 'resolved') resolved += 1;
      bar.increment(1, { resolved, last: describe(result) });
    },
    notice(message) {
      stream.write(`\n${message}\n`);
    },
    stop() {
      bar.stop();
    },
  };
}
