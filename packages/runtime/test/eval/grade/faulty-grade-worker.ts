/**
 * A grading worker for the pool's fault tests: the real `serveGradeTasks`, except that the thread
 * dies on a log whose directory is named `exit-here` (`process.exit(3)`, which ends only this
 * thread) or `throw-here` (an error thrown outside any task's grading: an uncaught exception).
 */
import type { MessagePort } from 'node:worker_threads';
import { gradeTask } from '../../../src/eval/grade/grade-one.js';
import { serveGradeTasks as serve } from '../../../src/eval/grade/grade-worker.js';

export function serveGradeTasks(port: MessagePort): void {
  serve(port, async (task) => {
    if (task.found.dir.endsWith('/exit-here')) process.exit(3);
    if (task.found.dir.endsWith('/throw-here')) {
      setImmediate(() => {
        throw new RangeError('injected fault');
      });
      await new Promise(() => {}); // never answers: the thread dies first
    }
    return gradeTask(task);
  });
}
