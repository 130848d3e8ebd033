/** Import-cycle and layering check, run in CI (`npm run cycles`). */
module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    {
      name: 'core-has-no-network-or-upper-layers',
      severity: 'error',
      from: { path: '^packages/core/' },
      to: { path: '^packages/(client|runner|emulator|cli)/' },
    },
    {
      name: 'runner-never-imports-emulator-or-cli',
      severity: 'error',
      from: { path: '^packages/runner/' },
      to: { path: '^packages/(emulator|cli)/' },
    },
    {
      name: 'plugins-import-core-only',
      severity: 'error',
      from: { path: '^plugins/' },
      to: { path: '^packages/(client|runner|emulator|cli)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)dist/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'types', 'default'] },
  },
};
