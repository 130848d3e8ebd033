// @oaakit/plugin-postgres: a PostgreSQL cluster's roles and privileges -> application payload.
export {
  PASSWORD_SECRET,
  postgresConfigSchema,
  type PostgresConfig,
  type PostgresConfigInput,
} from './config.js';
