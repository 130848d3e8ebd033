#!/usr/bin/env node
// The `oaa` command: oclif loads the commands from dist/commands.
import { execute } from '@oclif/core';

await execute({ dir: import.meta.url });
