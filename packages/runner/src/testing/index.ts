// @oaakit/runner/testing: the runner's part of the test kit (the emulator's is
// @oaakit/emulator/testing). A connector context for plugin tests, state and metrics read-outs.

export { testContext, type TestContext, type TestContextOptions, type TestLogLine } from './test-context.js';
export { stateFiles } from './state-files.js';
export { parseMetrics, readMetrics } from './metrics.js';
export { writeHashSnapshot } from './hash-snapshot.js';
export { runAcceptance, type RunAcceptanceOptions } from './run-acceptance.js';
export {
  ACCEPTANCE_CHECKS,
  type AcceptanceCheckName,
  type AcceptanceCheckResult,
  type AcceptanceOptions,
  type AcceptanceReport,
} from '../acceptance/types.js';
