/**
 * How long captured output logs are kept: a log is kept only when a stream was cut (otherwise the
 * result holds it whole and the wrapper removes it at once), and only the logs of the most recent
 * {@link keptOutputLogs} cut runs of a sandbox; an older one is deleted by the next run (the
 * wrapper's `drop` argument), and all of them go with the sandbox.
 * @module
 */
import { randomBytes } from 'node:crypto';

/** Cut runs whose logs a sandbox keeps (each log can be as large as the command's output). */
export const keptOutputLogs = 4;

/** Names the logs of one sandbox's runs and picks the old ones to delete. */
export class OutputLogRetention {
  private readonly kept: string[] = [];

  /**
   * @param dir absolute log directory in the sandbox
   * @param keep how many cut runs' logs to keep
   */
  constructor(
    readonly dir: string,
    private readonly keep: number = keptOutputLogs,
  ) {}

  /** A fresh log base for the next run, and the base of a kept log it should delete first. */
  next(): { log: string; drop: string | undefined } {
    const log = `${this.dir}/${Date.now().toString(36)}-${randomBytes(6).toString('hex')}`;
    const drop = this.kept.length >= this.keep ? this.kept.shift() : undefined;
    return { log, drop };
  }

  /** Records that the wrapper kept `log` (a stream was cut). */
  keptLog(log: string): void {
    this.kept.push(log);
  }

  /** A drop that was handed out but not performed (the run never started): try it again next time. */
  undrop(drop: string | undefined): void {
    if (drop !== undefined) this.kept.unshift(drop);
  }
}
