import { Args, Flags } from '@oclif/core';
import { OaaError } from '@oaakit/core';
import type { JobSummary } from '@oaakit/fleet';
import { JOB_COLUMNS } from '../../fleet/job-columns.js';
import { JobsCommand } from '../../fleet/jobs-command.js';
import { renderTable } from '../../output/table.js';

/** `oaa jobs enqueue [IDS...]`: run connectors now, on the fleet. */
export default class JobsEnqueue extends JobsCommand {
  static override summary = 'Queue a run of connectors now, for the fleet’s workers.';
  static override description =
    'Adds one run job per connector (ids from the config file, all of them with --all), with the same retries as scheduled runs.';
  static override strict = false;
  static override examples = [
    { description: 'Run hr now', command: '<%= config.bin %> <%= command.id %> hr' },
    {
      description: 'Run every connector of the config',
      command: '<%= config.bin %> <%= command.id %> --all',
    },
  ];
  static override args = { ids: Args.string({ description: 'connector ids' }) };
  static override flags = {
    config: Flags.string({
      char: 'c',
      description: 'config file (default: oaa.config.yaml, .yml or .json in this directory)',
    }),
    all: Flags.boolean({ description: 'every connector of the config' }),
    attempts: Flags.integer({ description: 'attempts per job (default 3)', min: 1, max: 100 }),
    'backoff-seconds': Flags.integer({
      description: 'delay before the first retry, doubled each time (default 30)',
      min: 0,
    }),
  };

  async run(): Promise<JobSummary[]> {
    const { argv, flags } = await this.parse(JobsEnqueue);
    const { loadConfig } = await import('@oaakit/runner');
    const loaded = await loadConfig(flags.config === undefined ? {} : { path: flags.config });
    const ids = flags.all ? loaded.config.connectors.map((c) => c.id) : (argv as string[]);
    if (ids.length === 0) throw new OaaError('name the connectors to run, or pass --all', { code: 'USAGE' });
    const queue = await this.openQueue(flags.queue);
    const jobs = await queue.enqueue(loaded, ids, {
      ...(flags.attempts === undefined ? {} : { attempts: flags.attempts }),
      ...(flags['backoff-seconds'] === undefined ? {} : { backoffMs: flags['backoff-seconds'] * 1000 }),
    });
    this.log(renderTable(JOB_COLUMNS, jobs));
    return jobs;
  }
}
