// Recorded sources: a connector's source requests recorded as HAR, and replayed from it.

export type {
  Har,
  HarContent,
  HarCookie,
  HarCreator,
  HarEntry,
  HarLog,
  HarNameValue,
  HarPostData,
  HarRequest,
  HarResponse,
  HarTimings,
} from './types.js';
export { SCRUBBED, type HarScrub } from './scrub.js';
export { HAR_CREATOR, HarRecorder, type HarRecorderOptions } from './recorder.js';
export { recordingFetch } from './recording-fetch.js';
export { readHar } from './read-har.js';
export { replayFetch, type ReplayFetchOptions } from './replay-fetch.js';
