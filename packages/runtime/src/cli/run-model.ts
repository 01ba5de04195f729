/**
 * The model of a `sandkit run` from its flags (`--model`, `--base-url`, `--price`), or, for
 * `--example`, sandkit's scripted model stand-in started in this process: an HTTP server speaking
 * the Anthropic Messages API, with a real provider package pointed at it.
 * @module
 */
import type { LanguageModel, LanguageModelUsage } from 'ai';
import { loadInstances } from '../eval/load/instance-loader.js';
import type { SweBenchInstance } from '../eval/load/swe-bench-instance.js';
import { costUsd, lookupModelPrice, type ModelPrice, parsePriceOverride } from '../run/model/model-price.js';
import { resolveModel } from '../run/model/resolve-model.js';
import { type OracleInstance, oracleScript } from '../run/stand-in/scripts.js';
import { startModelStandIn } from '../run/stand-in/start-model-stand-in.js';
import type { CostOf } from '../run/trajectory-step.js';

/** A model ready for `runAgentBenchmark`, and what to close after the run. */
export interface CliModel {
  model: LanguageModel;
  name: string;
  costOf: CostOf;
  /** Printed on stderr before the run (the stand-in says it is one). */
  notice: string;
  /** Printed on stdout after the summaries (the stand-in says the results are not a model's), or `null`. */
  footer: string | null;
  close(): Promise<void>;
}

/**
 * `--model spec [--base-url URL] [--price …]`: keys from the provider's usual variables.
 * @throws SandkitError `invalid_option` for an unknown provider or a bad `--price`.
 */
export function resolveCliModel(spec: string, baseURL?: string, price?: string): CliModel {
  const resolved = resolveModel(spec, baseURL === undefined ? {} : { baseURL });
  const known: ModelPrice | undefined =
    price === undefined ? lookupModelPrice(resolved) : parsePriceOverride(price);
  return {
    model: resolved.model,
    name: spec,
    costOf: known === undefined ? null : (usage: LanguageModelUsage) => costUsd(usage, known),
    notice: `model: ${spec}${known === undefined ? ' (no known price: give --price for costs)' : ''}`,
    footer: null,
    close: async () => undefined,
  };
}

/**
 * The example's model: the stand-in with the oracle script (each gold patch made with apply_diff).
 * @param price `--price` (USD per million tokens), to give the stand-in's tokens a cost; none by default
 * @throws SandkitError `invalid_option` for a bad `price`.
 */
export async function startExampleModel(dataset: string, price?: string): Promise<CliModel> {
  const known = price === undefined ? undefined : parsePriceOverride(price);
  const { instances } = await loadInstances(dataset);
  const standIn = await startModelStandIn({ script: oracleScript(instances.map(toOracleInstance)) });
  const resolved = resolveModel('anthropic:sandkit-stand-in', {
    baseURL: standIn.baseURL,
    apiKey: 'stand-in',
  });
  return {
    model: resolved.model,
    name: 'sandkit-stand-in/oracle',
    costOf: known === undefined ? null : (usage: LanguageModelUsage) => costUsd(usage, known),
    notice: `model: sandkit's scripted model stand-in at ${standIn.baseURL} (an oracle that makes each instance's gold patch with apply_diff; NOT a language model), through @ai-sdk/anthropic`,
    footer:
      "\nThe model was sandkit's scripted stand-in (an oracle applying each gold patch), not a language model: these results check the pipeline (sandboxes, tools, patches, grading), not a model. For a real one: --dataset <file> --model anthropic:<model-id>.\n",
    close: () => standIn.close(),
  };
}

/** A dataset instance as the oracle reads it (`problem_statement` is an untyped extra field). */
export function toOracleInstance(instance: SweBenchInstance): OracleInstance {
  const statement = instance.problem_statement;
  return {
    instance_id: instance.instance_id,
    problem_statement: typeof statement === 'string' ? statement : '',
    patch: instance.patch,
  };
}
