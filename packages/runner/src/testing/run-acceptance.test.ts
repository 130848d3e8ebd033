import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunnerTestSuite } from 'vitest';
import { broken, good } from '../acceptance/fixtures/connectors.js';
import { startSource } from '../acceptance/fixtures/source-server.js';
import type { SourceServer } from '../acceptance/fixtures/source-server.js';
import { ACCEPTANCE_CHECKS } from '../acceptance/types.js';
import { runAcceptance } from './run-acceptance.js';

const TOKEN = 'directory-token-51c0e2aa';
let source: SourceServer;

beforeAll(async () => {
  source = await startSource(TOKEN);
});
afterAll(() => source.close());

// As a plugin's test file does it: the source only exists once beforeAll has run.
await runAcceptance(good, () => ({
  config: { baseUrl: source.url },
  secrets: { token: TOKEN },
  bounds: { peakRssMb: 256 },
}));

// A connector with no source and no secrets, and no bound declared: its checks of those are skipped.
await runAcceptance(broken.resources, { only: ['definition', 'check', 'resources'] });

function suiteNamed(suites: readonly unknown[], name: string): RunnerTestSuite {
  const suite = (suites as RunnerTestSuite[]).find((t) => t.type === 'suite' && t.name === name);
  expect(suite, `a describe named "${name}"`).toBeDefined();
  return suite!;
}

it('registered one test per check, run in order, each passed', ({ task }) => {
  const suite = suiteNamed(task.file.tasks, 'acceptance of good-directory 1.0.0');
  expect(suite.tasks.map((t) => t.name)).toEqual([...ACCEPTANCE_CHECKS]);
  expect(suite.tasks.map((t) => t.result?.state)).toEqual(ACCEPTANCE_CHECKS.map(() => 'pass'));
});

it('registered only the checks asked for, and skipped those that do not apply, saying why', ({ task }) => {
  const suite = suiteNamed(task.file.tasks, 'acceptance of hoarder 1.0.0');
  expect(
    suite.tasks.map((t) => ({
      name: t.name,
      state: t.result?.state,
      note: (t.result as { note?: string } | undefined)?.note,
    })),
  ).toEqual([
    { name: 'definition', state: 'pass', note: undefined },
    { name: 'check', state: 'skip', note: 'no check() and no declared secrets' },
    {
      name: 'resources',
      state: 'skip',
      note: 'no bound declared (set "oaakit": { "acceptance": { "peakRssMb": N } } in package.json)',
    },
  ]);
});
