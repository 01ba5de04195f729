import { afterAll } from 'vitest';
import { describeSandboxConformance } from '../../src/conformance/index.js';
import { type E2BApiFake, startE2BApiFake } from '../../src/e2b-stand-in/index.js';
import { createFakeCloudE2BAdapter, fakeApiKey } from './e2b-api-fake-adapter.js';

// The whole conformance suite through the real e2b SDK outside debug mode: sandboxes are made and
// killed through the fake of E2B's REST API, and every envd call goes through its proxy.
let fake: E2BApiFake | undefined;
afterAll(async () => {
  await fake?.close();
});

describeSandboxConformance(
  'e2b (SDK + REST API fake + envd stand-in)',
  async () => {
    fake = await startE2BApiFake({ apiKey: fakeApiKey });
    return createFakeCloudE2BAdapter(fake, { timeoutMs: 600_000 });
  },
  {
    timeoutScale: 3,
    faults: {
      // Killed through the API behind the adapter's back, as an expiry or another client would.
      disappear: async (handle) => {
        await fetch(`${fake?.url}/sandboxes/${handle.id}`, {
          method: 'DELETE',
          headers: { 'x-api-key': fakeApiKey },
        });
      },
      endTransport: async (handle) => fake?.sandboxes.get(handle.id)?.standIn.dropStreams(),
    },
  },
);
