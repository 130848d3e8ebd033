// @oaakit/runner/testing: the runner's part of the test kit (the emulator's is
// @oaakit/emulator/testing). A connector context for plugin tests, state and metrics read-outs,
// and recorded sources (a HAR recording of a source, replayed in tests).

export { testContext, type TestContext, type TestContextOptions, type TestLogLine } from './test-context.js';
export { stateFiles } from './state-files.js';
export { parseMetrics, readMetrics } from './metrics.js';
export { writeHashSnapshot } from './hash-snapshot.js';
export {
  HarRecorder,
  readHar,
  recordingFetch,
  replayFetch,
  type Har,
  type HarEntry,
  type HarRecorderOptions,
  type HarScrub,
  type ReplayFetchOptions,
} from '../har/index.js';
