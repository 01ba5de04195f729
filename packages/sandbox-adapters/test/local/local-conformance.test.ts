import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';
import { describeSandboxConformance } from '@sandkit/sandbox-adapters/conformance';

describeSandboxConformance('local', () => createLocalSandboxAdapter());
