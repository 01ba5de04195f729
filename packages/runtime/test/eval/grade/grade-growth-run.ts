/**
 * The measured process of `grade-growth.test.ts`, run under callgrind: grades the instances of the
 * directory given (written by the test), each once to warm up, then each `rounds` times more,
 * each grading between two calls of `os.getPriority()`, whose libuv function
 * (`uv_os_getpriority`) callgrind dumps its counts before (`--dump-before`), so that each grading
 * is one dump's instruction count (dump 2 + 2i for the i-th). A full garbage collection
 * (`--expose-gc`) runs between gradings, in a dump of its own, so that each grading starts from
 * the same heap and the collection is not counted.
 * Arguments: the directory (dataset.jsonl, logs/run_evaluation/synthetic/model/<id>/), rounds.
 * @module
 */
import { getPriority } from 'node:os';
import { join } from 'node:path';
import { gradeTask } from '../../../src/eval/grade/grade-one.js';
import { testPlan } from '../../../src/eval/instance/test-plan.js';
import { loadInstances } from '../../../src/eval/load/instance-loader.js';

const dir = process.argv[2] as string;
const { instances } = await loadInstances(join(dir, 'dataset.jsonl'), { purpose: 'grade' });
const tasks = instances.map((instance) => {
  const { parser, officialParser, failOnly, source } = testPlan(instance);
  const found = {
    instanceId: instance.instance_id,
    model: 'model',
    dir: join(dir, 'logs/run_evaluation/synthetic/model', instance.instance_id),
    logIsDirectory: false,
  };
  return { instance, plan: { parser, officialParser, failOnly, source }, found };
});
const statuses: string[] = [];
const rounds = Number(process.argv[3] ?? 1);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
for (const task of tasks) gradeTask(task);
for (let round = 0; round < rounds; round++)
  for (const task of tasks) {
    gc();
    getPriority();
    statuses.push(gradeTask(task).result.status);
    getPriority();
  }
process.stdout.write(`${JSON.stringify(statuses)}\n`);
