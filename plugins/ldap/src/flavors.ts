/** The directory products this connector knows, by the name the config gives them. */
import { OaaError } from '@oaakit/core';
import { activeDirectoryFlavor } from './active-directory.js';
import type { DisabledAttribute } from './config.js';
import type { LdapErrorCode } from './error-codes.js';
import type { DirectoryFlavor, FlavorName } from './flavor.js';
import { openLdapFlavor } from './openldap.js';

/** What the config says about a flavour's rules. */
export interface FlavorOptions {
  /** OpenLDAP: the attribute that disables an account. */
  disabledAttribute?: DisabledAttribute | undefined;
}

/** Makes a flavour from the config's options. */
export type FlavorFactory = (options: FlavorOptions) => DirectoryFlavor;

/** Every flavour built in, by name. */
export const FLAVORS: Partial<Record<FlavorName, FlavorFactory>> = {
  openldap: openLdapFlavor,
  'active-directory': () => activeDirectoryFlavor(),
};

/** The flavour `name`; throws `FLAVOR_UNAVAILABLE` when it is not built in. */
export function flavorFor(name: FlavorName, options: FlavorOptions): DirectoryFlavor {
  const factory = FLAVORS[name];
  if (factory === undefined) {
    const known = Object.keys(FLAVORS).join(', ');
    throw new OaaError<LdapErrorCode>(
      `the ${name} flavor is not part of this version of the connector (it knows ${known})`,
      { code: 'FLAVOR_UNAVAILABLE', details: { field: 'flavor', flavor: name } },
    );
  }
  return factory(options);
}
