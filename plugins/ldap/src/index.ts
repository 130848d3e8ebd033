// @oaakit/plugin-ldap: a directory (OpenLDAP or Active Directory) -> identity_provider payload.
export type * from './flavor.js';
