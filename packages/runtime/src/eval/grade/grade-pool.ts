/**
 * `startGradePool`: grades logs on this thread and on worker threads (`node:worker_threads`) at
 * once. Each worker reads, parses and grades whole logs (`grade-worker.ts`) and posts back the
 * small per-instance result; this thread takes logs from the same queue between the workers'
 * messages. Each result is handed to the caller as it is graded, with its task's index, and not
 * kept.
 *
 * How a worker loads the grading code: from the built package (this module is `grade-pool.js`), it
 * imports `grade-worker.js` beside it. From the TypeScript sources (`pnpm sandkit`, vitest, the
 * benches: this module's URL ends in `.ts`), Node 20 cannot import `grade-worker.ts` in a worker
 * and tsx 4 registers its loader in the main thread only, so the worker first registers tsx through
 * its API (`tsx/esm/api`, resolved from this module: the repository's development dependency), then
 * imports the `.ts` module. The built package never loads tsx. The `@sandkit/source` export
 * condition reaches the worker in the parent's `execArgv`, which a worker inherits.
 *
 * Faults: a worker thread that dies while grading (an uncaught error, `process.exit` in the
 * thread) fails that one log with an `internal` error saying why, and the logs it had queued go
 * back to the queue (a new worker is started for them; if that one cannot start, this thread grades
 * them); a worker started with the pool that cannot load the grading code fails the run, before
 * any result was handed out (see {@link GradePool.grade}'s `onGraded`). (A worker out of V8 heap can take the whole process down on Node 20, as the main
 * thread would: tried with a 16 MiB `resourceLimits` heap.)
 * @module
 */
import { Worker } from 'node:worker_threads';
import { SandkitError, SandkitErrorCode } from '@sandkit/core';
import { describeError, failedGrade, type GradedInstance, type GradeTask, gradeTask } from './grade-one.js';
import type { GradeReply, GradeRequest } from './grade-worker.js';

/** Tasks posted to one worker at once: the next ones wait in its queue while it grades the first. */
const tasksPerWorker = 3;

/** Options of {@link startGradePool}. */
export interface GradePoolOptions {
  /** Worker threads to start besides this one (0: grade in this thread only); an integer ≥ 0. */
  workers: number;
  /** URL of the module a worker imports for `serveGradeTasks` (tests give one that dies on a log). @default `grade-worker.js` (`.ts` from sources) beside this module */
  entry?: string;
}

/** Started workers, waiting for {@link GradePool.grade}. */
export interface GradePool {
  /**
   * Grades `tasks` (once per pool) on this thread and the workers.
   * @param onGraded called with each task's index and result as it is graded (in no set order),
   *   from when every worker started with the pool has loaded (so never in a run that fails
   *   because one could not), each before the returned promise resolves
   *   (the pool keeps no result once handed out, so that its memory does not grow with the tasks)
   * @returns when every task's result has been handed to `onGraded`
   * @throws SandkitError `internal` when a worker could not load the grading code, or on a second call
   */
  grade(
    tasks: readonly GradeTask[],
    onGraded: (index: number, graded: GradedInstance) => void,
  ): Promise<void>;
  /** Stops the workers (idempotent); call it in a `finally`. */
  close(): Promise<void>;
}

/** What the boot code of a worker needs: the module to import, and tsx's API when that is TypeScript. */
interface WorkerBoot {
  entry: string;
  tsx: string | null;
}

/** The code a worker starts with (CommonJS, `eval`): register tsx when needed, then serve. */
const bootCode = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  if (workerData.tsx !== null) (await import(workerData.tsx)).register();
  (await import(workerData.entry)).serveGradeTasks(parentPort);
})();
`;

/** One worker and what it was given. */
interface Slot {
  worker: Worker;
  /** Started with the pool (not to replace a dead worker): failing to start fails the run. */
  initial: boolean;
  /** Indexes posted to it and not answered, oldest first (it grades them in this order). */
  inFlight: number[];
  ready: boolean;
  failure: unknown;
}

/** The run of {@link GradePool.grade}. */
interface Run {
  tasks: readonly GradeTask[];
  /** Indexes of the tasks nobody has; those of a dead worker go back to the front. */
  queue: number[];
  done: number;
  /** This thread is taking tasks from the queue. */
  laneRunning: boolean;
  /** Results not yet handed to `onGraded` (every worker started with the pool has not loaded yet). */
  held: Array<{ index: number; graded: GradedInstance }>;
  onGraded: (index: number, graded: GradedInstance) => void;
  settle(error?: SandkitError): void;
}

/**
 * Starts `options.workers` worker threads now, so that they load while the caller reads its
 * dataset; {@link GradePool.grade} then gives them the logs.
 * @throws SandkitError `internal` when this module runs from its sources and tsx cannot be found
 */
export function startGradePool(options: GradePoolOptions): GradePool {
  const boot = options.workers > 0 ? workerBoot(options.entry) : null;
  const slots = new Set<Slot>();
  let run: Run | undefined;
  let closed = false;
  /** A worker that failed before the run began (it could not start). */
  let early: SandkitError | undefined;
  /** Workers started with the pool that have not loaded yet. */
  let loading = options.workers;

  const startFailure = (slot: Slot, why: string): SandkitError =>
    new SandkitError({
      code: SandkitErrorCode.internal,
      message: `a grading worker thread could not start (${why}); nothing was written: grade in this thread with --jobs 1 (runGrade's jobs: 1)`,
      cause: slot.failure,
      details: { entry: boot?.entry, tsx: boot?.tsx },
    });

  const feed = (slot: Slot): void => {
    if (run === undefined) return;
    while (slot.inFlight.length < tasksPerWorker && run.queue.length > 0) {
      const index = run.queue.shift() as number;
      slot.inFlight.push(index);
      slot.worker.postMessage({ index, task: run.tasks[index] as GradeTask } satisfies GradeRequest);
    }
  };

  const finishTask = (index: number, graded: GradedInstance): void => {
    if (run === undefined) return;
    run.done++;
    if (loading > 0) run.held.push({ index, graded });
    else run.onGraded(index, graded);
    if (run.done === run.tasks.length) run.settle();
    else pump();
  };

  /** Hands out the held results once no worker started with the pool can fail to load any more. */
  const release = (): void => {
    if (run === undefined) return;
    for (const { index, graded } of run.held.splice(0)) run.onGraded(index, graded);
  };

  /** Gives queued tasks to this thread and to every worker with room. */
  const pump = (): void => {
    const current = run;
    if (current === undefined) return;
    if (!current.laneRunning && current.queue.length > 0) {
      current.laneRunning = true;
      void (async () => {
        while (current.queue.length > 0) {
          const index = current.queue.shift() as number;
          finishTask(index, gradeTask(current.tasks[index] as GradeTask));
          // Lets the workers' replies in (and the next tasks out to them) between two logs.
          await new Promise(setImmediate);
        }
        current.laneRunning = false;
      })();
    }
    for (const slot of slots) feed(slot);
  };

  const spawn = (initial: boolean): void => {
    const worker = new Worker(bootCode, { eval: true, workerData: boot });
    const slot: Slot = { worker, initial, inFlight: [], ready: false, failure: undefined };
    slots.add(slot);
    worker.on('message', (reply: GradeReply) => {
      if (reply.kind === 'ready') {
        slot.ready = true;
        if (initial && --loading === 0) release();
        return;
      }
      slot.inFlight.splice(slot.inFlight.indexOf(reply.index), 1);
      finishTask(reply.index, reply.graded);
    });
    worker.on('error', (error) => {
      slot.failure = error;
    });
    worker.on('messageerror', (error) => {
      slot.failure = error;
      void worker.terminate();
    });
    worker.on('exit', (code) => {
      if (closed || !slots.delete(slot)) return;
      const why = slot.failure === undefined ? `it exited with code ${code}` : describeError(slot.failure);
      if (!slot.ready && slot.initial) {
        const error = startFailure(slot, why);
        if (run === undefined) early ??= error;
        else run.settle(error);
        return;
      }
      if (run === undefined) return;
      if (!slot.ready) {
        // A replacement that could not start: its logs go back to the queue, for this thread.
        run.queue.unshift(...slot.inFlight);
        pump();
        return;
      }
      // It grades its tasks in order: the oldest unanswered one is the log it died on.
      const culprit = slot.inFlight.shift();
      run.queue.unshift(...slot.inFlight);
      if (run.queue.length > 0) spawn(false);
      if (culprit !== undefined)
        finishTask(
          culprit,
          failedGrade(
            run.tasks[culprit] as GradeTask,
            `the worker thread grading this log died (${why}): not graded; the other logs were`,
          ),
        );
      else pump();
    });
  };

  for (let n = 0; n < options.workers; n++) spawn(true);

  return {
    grade(tasks, onGraded) {
      if (run !== undefined)
        throw new SandkitError({
          code: SandkitErrorCode.internal,
          message: 'GradePool.grade is called once per pool',
        });
      if (early !== undefined) return Promise.reject(early);
      if (tasks.length === 0) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        let settled = false;
        run = {
          tasks,
          queue: tasks.map((_, index) => index),
          done: 0,
          laneRunning: false,
          held: [],
          onGraded,
          settle(error) {
            if (settled) return;
            settled = true;
            // Stops this thread's grading and the feeding of workers.
            this.queue.length = 0;
            if (error !== undefined) return reject(error);
            release(); // every task is graded: no start failure can fail the run now
            resolve();
          },
        };
        // Workers first: this thread starts grading synchronously.
        for (const slot of slots) feed(slot);
        pump();
      });
    },
    async close() {
      closed = true;
      await Promise.all([...slots].map((slot) => slot.worker.terminate()));
      slots.clear();
    },
  };
}

/**
 * The module a worker imports, and tsx's API when that module is TypeScript.
 * @throws SandkitError `internal` when this module runs from its sources and tsx cannot be found
 */
function workerBoot(entry: string | undefined): WorkerBoot {
  const fromSources = import.meta.url.endsWith('.ts');
  const module =
    entry ?? new URL(fromSources ? './grade-worker.ts' : './grade-worker.js', import.meta.url).href;
  if (!module.endsWith('.ts')) return { entry: module, tsx: null };
  try {
    return { entry: module, tsx: import.meta.resolve('tsx/esm/api') };
  } catch (error) {
    throw new SandkitError({
      code: SandkitErrorCode.internal,
      message: `@sandkit/runtime runs from its TypeScript sources here, and its grading worker threads need tsx to load them, which cannot be found (${describeError(error)}): install tsx as a development dependency, or grade in this thread with --jobs 1`,
      cause: error,
    });
  }
}
