#!/usr/bin/env node
// The `oaa` command: oclif loads the commands from dist/commands.
import module from 'node:module';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';

// Node 22.1 and later keep the compiled code of the modules `oaa` loads on disk (in the temporary
// directory; NODE_DISABLE_COMPILE_CACHE=1 turns it off): later commands start sooner. Node 20 has
// no such cache.
module.enableCompileCache?.();

// A run streams millions of short-lived entities. V8's allocation-site pretenuring sometimes judges,
// from an early burst of survivors (the resources a connector builds in memory), that the objects
// made at a site live long, and allocates them in the old generation from then on, where they pile
// up as garbage until a full collection: `oaa run` of bench-app-1,000,000 peaked at 0.54 GB in the
// runs where it did and 0.31 GB where it did not. Turned off, the peak is 0.30-0.32 GB every time
// and the run is faster (README, Benchmarks). Set before anything else is loaded.
setFlagsFromString('--no-allocation-site-pretenuring');

// The manifest written by the build lets oclif load only the command that runs; one older than the
// built commands is removed first, so oclif reads the commands themselves (src/manifest.ts).
const { dropStaleManifest } = await import('../dist/manifest.js');
dropStaleManifest(fileURLToPath(new URL('..', import.meta.url)));

const { execute } = await import('@oclif/core');
await execute({ dir: import.meta.url });
