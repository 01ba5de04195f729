/**
 * The worker-thread side of `grade-pool.ts`: a worker imports this module and calls
 * {@link serveGradeTasks}, which grades the tasks posted to it one at a time, in the order they
 * came, and posts each result back.
 * @module
 */
import type { MessagePort } from 'node:worker_threads';
import { type GradedInstance, type GradeTask, gradeTask } from './grade-one.js';

/** A task posted to a worker: `index` is its place in the run. */
export interface GradeRequest {
  index: number;
  task: GradeTask;
}

/** What a worker posts: `ready` once, when it can grade; then one `graded` per request, in request order. */
export type GradeReply = { kind: 'ready' } | { kind: 'graded'; index: number; graded: GradedInstance };

/**
 * Serves grade requests arriving on `port` (a worker's `parentPort`): posts `ready`, then grades
 * each request after the one before it and posts its {@link GradeReply}. A request's grading never
 * throws (see `gradeTask`); only the thread dying loses a reply, which the pool sees.
 * @param grade how one task is graded (tests wrap `gradeTask` to make the thread die on a log)
 */
export function serveGradeTasks(
  port: MessagePort,
  grade: (task: GradeTask) => GradedInstance | Promise<GradedInstance> = gradeTask,
): void {
  let previous = Promise.resolve();
  port.on('message', (request: GradeRequest) => {
    previous = previous.then(async () => {
      const graded = await grade(request.task);
      port.postMessage({ kind: 'graded', index: request.index, graded } satisfies GradeReply);
    });
  });
  port.postMessage({ kind: 'ready' } satisfies GradeReply);
}
