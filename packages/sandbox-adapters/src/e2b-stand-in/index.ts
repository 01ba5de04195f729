export { type E2BStandIn, type E2BStandInOptions, startE2BStandIn } from './e2b-stand-in.js';
