// @oaakit/fleet/testing: what tests of a fleet need (a real Redis).
export { startTestRedis, type TestRedis, type TestRedisOptions } from './redis-server.js';
export { readFleetState } from './fleet-state.js';
