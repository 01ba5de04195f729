/**
 * Warm acquire latency of the pooled provider: acquire + release of an idle sandbox, against a
 * baseline of a bare `await Promise.resolve()` + array pop/push in the same run (what any async pool
 * costs at least). The adapter makes in-memory sandboxes, so only the pool's own work is measured.
 *
 *   pnpm tsx bench/pool-acquire.ts
 */
import type { SandboxAdapter, SandboxClient } from '../packages/core/src/index.js';
import { createPooledSandboxProvider } from '../packages/runtime/src/pool/pooled-sandbox-provider.js';

const iterations = Number(process.env.ITERATIONS ?? 20_000);
const warmup = 2_000;

const client = {} as SandboxClient;
let serial = 0;
const adapter: SandboxAdapter = {
  name: 'memory',
  async create() {
    const id = `memory-${++serial}`;
    return { id, client, workdir: '/', destroy: async () => {} };
  },
};

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

async function measure(label: string, once: () => Promise<void>): Promise<{ p50: number; p99: number }> {
  for (let i = 0; i < warmup; i++) await once();
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const started = performance.now();
    await once();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  const result = { p50: percentile(samples, 0.5), p99: percentile(samples, 0.99) };
  console.log(
    `${label.padEnd(34)} p50 ${(result.p50 * 1000).toFixed(2)} µs   p99 ${(result.p99 * 1000).toFixed(2)} µs`,
  );
  return result;
}

const pool = createPooledSandboxProvider({ adapter, min: 4, max: 4 });
const warm = await pool.acquire();
await warm.release();

const stack = [1, 2, 3, 4];
const baseline = await measure('baseline (Promise.resolve + pop)', async () => {
  const item = await Promise.resolve(stack.pop()!);
  stack.push(item);
});
const acquire = await measure('pool warm acquire', async () => {
  const session = await pool.acquire();
  await session.release();
});
const acquireOnly = await measure('pool warm acquire (acquire only)', async () => {
  const session = await pool.acquire();
  void session.release();
});
await pool.close();

console.log(
  `\nwarm acquire+release p50 = ${(acquire.p50 * 1000).toFixed(2)} µs, ${(acquire.p50 / baseline.p50).toFixed(1)}× the baseline`,
);
console.log(
  `acquire only p50 = ${(acquireOnly.p50 * 1000).toFixed(2)} µs; goal < 1000 µs: ${acquire.p50 < 1 ? 'met' : 'NOT met'}`,
);
