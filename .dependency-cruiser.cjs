/** Import-cycle and layering check, run in CI (`npm run cycles`). */
module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    {
      name: 'core-has-no-network-or-upper-layers',
      severity: 'error',
      from: { path: '^packages/core/' },
      to: { path: '^packages/(client|runner|emulator|cli|fleet)/' },
    },
    {
      name: 'runner-never-imports-emulator-or-cli',
      comment: 'the CLI is the composition root that wires the embedded emulator in (tests may start one)',
      severity: 'error',
      from: { path: '^packages/runner/src/', pathNot: '[.]test[.]ts$|/private-test-helpers/' },
      to: { path: '^packages/(emulator|cli|fleet)/' },
    },
    {
      name: 'fleet-above-runner-below-cli',
      comment:
        'core <- client <- runner <- fleet <- cli: the runner and the single-machine daemon never load Redis code',
      severity: 'error',
      from: { path: '^packages/fleet/src/', pathNot: '[.]test[.]ts$|/private-test-helpers/' },
      to: { path: '^packages/(emulator|cli)/' },
    },
    {
      name: 'only-fleet-and-cli-load-redis',
      severity: 'error',
      from: { path: '^packages/(core|client|runner|emulator)/src/' },
      to: { path: 'node_modules/(bullmq|ioredis)/' },
    },
    {
      name: 'client-imports-core-only',
      severity: 'error',
      from: { path: '^packages/client/src/', pathNot: '[.]test[.]ts$|/private-test-helpers/' },
      to: { path: '^packages/(runner|emulator|cli|fleet)/' },
    },
    {
      name: 'emulator-imports-core-only',
      severity: 'error',
      from: { path: '^packages/emulator/src/', pathNot: '[.]test[.]ts$|/private-test-helpers/' },
      to: { path: '^packages/(client|runner|cli|fleet)/' },
    },
    {
      name: 'plugins-import-core-only',
      severity: 'error',
      from: { path: '^plugins/[^/]+/src/', pathNot: '[.]test[.]ts$|/private-test-helpers/' },
      to: { path: '^packages/(client|runner|emulator|cli|fleet)/' },
    },
  ],
  options: {
    // Workspace packages resolve to their dist/: keep those modules as leaves so rules can see them.
    doNotFollow: { path: 'node_modules|(^|/)dist/' },
    exclude: { path: '/test-fixtures/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'types', 'default'] },
  },
};
