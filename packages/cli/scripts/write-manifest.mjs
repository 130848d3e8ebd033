// Build step: writes oclif.manifest.json from the built commands (see src/manifest.ts).
import { fileURLToPath } from 'node:url';
import { writeManifest } from '../dist/manifest.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const count = await writeManifest(root);
process.stdout.write(`oclif.manifest.json: ${count} commands\n`);
