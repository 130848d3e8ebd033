/** Every route of the emulator. */
import type { FastifyInstance } from 'fastify';
import type { EmulatorContext } from '../context.js';
import { registerApiKeyRoutes } from './admin-api-keys.js';
import { registerCallRoutes } from './admin-calls.js';
import { registerClockRoutes } from './admin-clock.js';
import { registerFaultRoutes } from './admin-faults.js';
import { registerGraphRoutes } from './admin-graph.js';
import { registerConfigurationRoutes } from './configurations.js';
import { registerDataSourceRoutes } from './datasources.js';
import { registerIconRoutes } from './icons.js';
import { registerProviderRoutes } from './providers.js';

/** Registers the service routes and the `/_emulator` test controls. */
export function registerRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  registerProviderRoutes(app, ctx);
  registerIconRoutes(app, ctx);
  registerDataSourceRoutes(app, ctx);
  registerConfigurationRoutes(app, ctx);
  registerApiKeyRoutes(app, ctx);
  registerFaultRoutes(app, ctx);
  registerClockRoutes(app, ctx);
  registerCallRoutes(app, ctx);
  registerGraphRoutes(app, ctx);
}
