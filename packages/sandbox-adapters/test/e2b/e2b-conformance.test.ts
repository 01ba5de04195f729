import { describeSandboxConformance } from '../../src/conformance/index.js';
import { createStandInE2BAdapter, standInFaults } from './e2b-stand-in-adapter.js';

// The whole conformance suite through the real e2b SDK, over its real wire protocol, against
// the envd stand-in (E2B's cloud is out of reach here).
describeSandboxConformance('e2b (SDK debug mode + envd stand-in)', () => createStandInE2BAdapter(), {
  timeoutScale: 3,
  faults: standInFaults,
});
