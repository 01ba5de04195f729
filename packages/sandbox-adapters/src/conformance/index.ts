export { describeSandboxConformance } from './describe-sandbox-conformance.js';
export type { SandboxConformanceOptions } from './conformance-context.js';
