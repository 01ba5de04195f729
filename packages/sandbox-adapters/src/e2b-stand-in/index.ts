export {
  type E2BApiFake,
  type E2BApiFakeOptions,
  type FakeSandbox,
  type FakeTemplate,
  startE2BApiFake,
} from './e2b-api-fake.js';
export { type E2BStandIn, type E2BStandInOptions, startE2BStandIn } from './e2b-stand-in.js';
export type { TemplateDirectories } from './sandbox-file-system.js';
