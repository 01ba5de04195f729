export { describeSandboxConformance } from './describe-sandbox-conformance.js';
export type { ConformanceFaults, SandboxConformanceOptions } from './conformance-context.js';
