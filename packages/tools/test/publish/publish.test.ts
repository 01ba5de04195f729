import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';
import { describePublishCases } from './publish-cases.js';

describePublishCases('local', () => createLocalSandboxAdapter().create());
