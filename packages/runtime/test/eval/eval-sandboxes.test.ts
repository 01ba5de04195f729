import { describe, expect, it } from 'vitest';
import { createEvalSandboxes } from '../../src/eval/eval-sandboxes.js';
import type { SweBenchInstance } from '../../src/eval/load/swe-bench-instance.js';
import { officialImageNaming } from '../../src/eval/sandbox/official-image.js';
import { createCountingAdapter } from '../pool/counting-adapter.js';

const instance = (id: string): SweBenchInstance =>
  ({ instance_id: id, repo: 'o/r', base_commit: 'abc', image: `img/${id}` }) as unknown as SweBenchInstance;

describe('createEvalSandboxes', () => {
  describe('when every instance has its own image (one pool each, as with the official images)', () => {
    it('keeps the sandboxes of all pools together under maxSandboxes and serves a waiter when another pool destroys one', async () => {
      const adapter = createCountingAdapter({ createDelayMs: 2 });
      const images: Array<string | null> = [];
      const sandboxes = createEvalSandboxes({
        kind: 'docker',
        image: null,
        naming: officialImageNaming,
        adapter: null,
        maxSandboxes: 2,
        timeoutMs: 10_000,
        adapterFor: async (image) => {
          images.push(image);
          return adapter;
        },
      });
      const [a, b, c] = await Promise.all(['a', 'b', 'c'].map((id) => sandboxes.forInstance(instance(id))));
      const first = await a!.acquire();
      const second = await b!.acquire();
      let servedThird = false;
      const third = c!.acquire().then((session) => {
        servedThird = true;
        return session;
      });
      await new Promise((r) => setTimeout(r, 30));
      expect(servedThird).toBe(false);
      await first.release({ destroy: true });
      const session = await third;
      await Promise.all([second.release({ destroy: true }), session.release({ destroy: true })]);
      await sandboxes.close();
      expect(images).toEqual(['img/a', 'img/b', 'img/c']);
      expect(adapter.peak).toBe(2);
      expect(adapter.live).toBe(0);
    });
  });
});
