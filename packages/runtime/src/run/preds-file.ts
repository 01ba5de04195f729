/**
 * `preds.json` of `sandkit run`: an object keyed by instance id, each value
 * `{ instance_id, model_name_or_path, model_patch }`, as SWE-agent and mini-swe-agent write it.
 * Rewritten atomically (a temp file renamed over it) after every instance, so a killed run
 * always leaves a whole, valid file.
 * @module
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { SweBenchPrediction } from '../eval/load/swe-bench-instance.js';
import { writeAtomic } from '../eval/report/write-atomic.js';

/** The predictions of one run directory, written in call order. */
export class PredsFile {
  readonly #file: string;
  readonly #preds = new Map<string, SweBenchPrediction>();
  #writes: Promise<void> = Promise.resolve();

  constructor(file: string) {
    this.#file = file;
  }

  /** Loads the file when it exists (a resumed run); a file that is not such an object is ignored. */
  async load(): Promise<void> {
    if (!existsSync(this.#file)) return;
    try {
      const value = JSON.parse(await readFile(this.#file, 'utf8')) as Record<string, SweBenchPrediction>;
      for (const [id, pred] of Object.entries(value))
        if (typeof pred === 'object' && pred !== null && pred.instance_id === id) this.#preds.set(id, pred);
    } catch {
      // a broken file (impossible with atomic writes) is rewritten from the trajectories
    }
  }

  /** Whether `id` has a prediction. */
  has(id: string): boolean {
    return this.#preds.has(id);
  }

  /** Sets (or replaces) a prediction and rewrites the file; resolves when it is on disk. */
  set(pred: SweBenchPrediction): Promise<void> {
    this.#preds.set(pred.instance_id, pred);
    return this.#flush();
  }

  /** Removes predictions (a rerun instance) and rewrites the file. */
  delete(ids: Iterable<string>): Promise<void> {
    for (const id of ids) this.#preds.delete(id);
    return this.#flush();
  }

  #flush(): Promise<void> {
    const text = `${JSON.stringify(Object.fromEntries(this.#preds), null, 2)}\n`;
    this.#writes = this.#writes.then(() => writeAtomic(this.#file, text));
    return this.#writes;
  }
}
