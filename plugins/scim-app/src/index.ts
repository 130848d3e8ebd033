// @oaakit/plugin-scim-app: any SCIM 2.0 service -> application payload.
import { scimAppConnector } from './connector.js';

export { scimAppConnector } from './connector.js';
export {
  CREDENTIAL_SECRET,
  scimAppConfigSchema,
  scimAuthSchema,
  type ScimAppConfig,
  type ScimAppConfigInput,
  type ScimAuth,
} from './config.js';
export { USER_PROPERTIES } from './build-payload.js';
export { ENTERPRISE_USER } from './scim-resources.js';

/** The connector the runner loads (`oaakit.connector` in package.json points at this module). */
export default scimAppConnector;
