// @oaakit/runner/testing: the runner's part of the test kit (the emulator's is
// @oaakit/emulator/testing). A connector context for plugin tests, state and metrics read-outs,
// and recorded sources (a HAR recording of a source, replayed in tests).

export { testContext, type TestContext, type TestContextOptions, type TestLogLine } from './test-context.js';
export { stateFiles } from './state-files.js';
export { parseMetrics, readMetrics } from './metrics.js';
export { writeHashSnapshot } from './hash-snapshot.js';
export {
  HarRecorder,
  SCRUBBED,
  readHar,
  recordingFetch,
  replayFetch,
  type Har,
  type HarContent,
  type HarCookie,
  type HarCreator,
  type HarEntry,
  type HarLog,
  type HarNameValue,
  type HarPostData,
  type HarRecorderOptions,
  type HarRequest,
  type HarResponse,
  type HarScrub,
  type HarTimings,
  type ReplayFetchOptions,
} from '../har/index.js';

export { runAcceptance, type RunAcceptanceOptions } from './run-acceptance.js';
export { readAcceptanceBounds } from '../acceptance/plugin-bounds.js';
export {
  ACCEPTANCE_CHECKS,
  type AcceptanceCheckName,
  type AcceptanceCheckResult,
  type AcceptanceOptions,
  type AcceptanceReport,
} from '../acceptance/types.js';
