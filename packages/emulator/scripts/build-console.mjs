// Bundles the web console's browser code (src/console/ui/) into dist/console-ui/ with esbuild: one
// script and one stylesheet, served by the emulator at /console/assets/. Everything the console
// needs is in these two files (no CDN), so it works offline. Run by the package's build script.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
await build({
  absWorkingDir: root,
  entryPoints: { app: 'src/console/ui/main.ts', style: 'src/console/ui/style.css' },
  outdir: 'dist/console-ui',
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['es2022'],
  platform: 'browser',
  sourcemap: false,
  legalComments: 'none',
  logLevel: 'warning',
});
