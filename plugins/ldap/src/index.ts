// @oaakit/plugin-ldap: a directory (OpenLDAP or Active Directory) -> identity_provider payload.
import { ldapConnector } from './connector.js';

export {
  DOMAIN_PROPERTIES,
  GROUP_PROPERTIES,
  IDP_TYPES,
  USER_PROPERTIES,
  ldapConnector,
} from './connector.js';
export {
  DISABLED_ATTRIBUTES,
  MAX_PAGE_SIZE,
  PASSWORD_SECRET,
  ldapConfigSchema,
  type DisabledAttribute,
  type LdapConfig,
  type LdapConfigInput,
} from './config.js';
export { AD_GROUP_PROPERTIES, AD_USER_PROPERTIES } from './active-directory.js';
export { AD_BIND_REASONS, AD_CAPABILITY } from './connection.js';
export { OPENLDAP_GROUP_PROPERTIES, OPENLDAP_USER_PROPERTIES } from './openldap.js';
export { openLdapLimitsLine } from './search.js';
export type { LdapErrorCode } from './error-codes.js';
export type * from './flavor.js';

/** The connector the runner loads (`oaakit.connector` in package.json points at this module). */
export default ldapConnector;
