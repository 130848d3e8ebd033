// @oaakit/emulator/testing: the test kit. An emulator on port 0 with keys, its admin controls and
// condition polling, for this repository's tests and for plugin authors' own.

export { startTestEmulator, type TestEmulator, type TestEmulatorOptions } from './test-emulator.js';
export {
  createEmulatorAdmin,
  type ClockState,
  type EmulatorAdmin,
  type FaultInput,
  type GraphRead,
} from './admin.js';
export { until, type UntilOptions } from './until.js';
export { type ApiKeyRecord, type Role } from '../auth/api-keys.js';
export { type CallRecord } from '../calls.js';
export { type Fault, type FaultSpec } from '../faults.js';
export { type GraphEdgeView, type GraphNodeView, type GraphStats } from '../graph/read-graph.js';
export { type EventRecord } from '../store/events.js';
export { signInToConsole, cookiesOf, hiddenField, type ConsoleSignIn } from './console-session.js';
