// @oaakit/plugin-postgres: a PostgreSQL cluster's roles and privileges -> application payload.
import { postgresConnector } from './connector.js';

export { postgresConnector } from './connector.js';
export {
  PASSWORD_SECRET,
  postgresConfigSchema,
  type PostgresConfig,
  type PostgresConfigInput,
} from './config.js';
export { PUBLIC_GROUP, USER_PROPERTIES } from './payload.js';
export { OWNER_ROLE, PRIVILEGE_TYPES, SEQUENCE_USAGE } from './privileges.js';
export type { PostgresErrorCode } from './error-codes.js';

/** The connector the runner loads (`oaakit.connector` in package.json points at this module). */
export default postgresConnector;
