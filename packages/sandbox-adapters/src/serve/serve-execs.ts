/**
 * The commands one served sandbox runs, by the client's exec id: so that a client can abort a run
 * from a second request, and fetch the result of a run whose stream it lost.
 *
 * A run whose stream closed before its result was sent (the client went away, a proxy cut it) is
 * aborted at once, which kills its whole process group as a timeout does, and its result is kept
 * for {@link lostResultRetentionMs} so the client can fetch it; a delivered result is forgotten.
 * @module
 */
import type { ExecResult } from '@sandkit/core';

/** How long the result of a run whose stream was lost is kept for `GET .../exec/{execId}`, in ms. */
export const lostResultRetentionMs = 5 * 60_000;

/** How a run ended: its result, or the error the sandbox threw. */
export type ExecOutcome = { result: ExecResult } | { error: unknown };

interface Run {
  readonly controller: AbortController;
  readonly outcome: Promise<ExecOutcome>;
}

/** The runs of one sandbox. */
export class ServeExecs {
  readonly #runs = new Map<string, Run>();

  /**
   * Starts `run` under `execId`, with an AbortSignal that {@link ServeExecs.abort} fires. A second
   * request with the id of a run still known attaches to that run instead (its outcome, without its
   * output stream): so a client may resend a request whose answer it never got without running the
   * command twice.
   */
  start(execId: string, run: (signal: AbortSignal) => Promise<ExecResult>): Promise<ExecOutcome> {
    const known = this.#runs.get(execId);
    if (known !== undefined) return known.outcome;
    const controller = new AbortController();
    const outcome = run(controller.signal).then(
      (result): ExecOutcome => ({ result }),
      (error: unknown): ExecOutcome => ({ error }),
    );
    this.#runs.set(execId, { controller, outcome });
    return outcome;
  }

  /** `true` when a run of `execId` is known (running, or its result not yet taken). */
  has(execId: string): boolean {
    return this.#runs.has(execId);
  }

  /** Forgets a run whose result reached its client. */
  delivered(execId: string): void {
    this.#runs.delete(execId);
  }

  /** The stream of `execId` closed early: kill the run, keep its result for a while. */
  lost(execId: string): void {
    const run = this.#runs.get(execId);
    if (run === undefined) return;
    run.controller.abort();
    void run.outcome.then(() => {
      setTimeout(() => {
        if (this.#runs.get(execId) === run) this.#runs.delete(execId);
      }, lostResultRetentionMs).unref();
    });
  }

  /** Aborts `execId` (kills its process group); a finished run is left as it is. @returns `false` for an unknown id */
  abort(execId: string): boolean {
    const run = this.#runs.get(execId);
    run?.controller.abort();
    return run !== undefined;
  }

  /** The outcome of `execId`, once it ended; `undefined` for an unknown id. Fetching it forgets the run. */
  async take(execId: string): Promise<ExecOutcome | undefined> {
    const run = this.#runs.get(execId);
    if (run === undefined) return undefined;
    const outcome = await run.outcome;
    this.#runs.delete(execId);
    return outcome;
  }

  /** Aborts every run (the sandbox is being destroyed). */
  abortAll(): void {
    for (const run of this.#runs.values()) run.controller.abort();
  }
}
