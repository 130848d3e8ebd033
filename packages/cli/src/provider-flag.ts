/** The `--provider NAME|ID` flag of the data-source commands. */
import { Flags } from '@oclif/core';

/** `--provider` (`-p`): the provider the data sources belong to. */
export const providerFlag = Flags.string({ char: 'p', description: 'provider name or id', required: true });
