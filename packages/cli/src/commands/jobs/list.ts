import { Flags } from '@oclif/core';
import type { JobSummary } from '@oaakit/fleet';
import { JOB_COLUMNS } from '../../fleet/job-columns.js';
import { JobsCommand } from '../../fleet/jobs-command.js';
import { renderTable } from '../../output/table.js';

/** `oaa jobs list`: the jobs of one state, failed ones by default. */
export default class JobsList extends JobsCommand {
  static override summary = 'List the run jobs of a fleet: by default the failed ones that are kept.';
  static override description =
    'A job that exhausted its retries stays in the failed list until it is retried (oaa jobs retry) or removed (oaa jobs remove). --state shows the jobs of another state; newest first.';
  static override examples = [
    {
      description: 'Jobs that failed for good',
      command: '<%= config.bin %> <%= command.id %> --queue redis://127.0.0.1:6379',
    },
    {
      description: 'What ran lately, as JSON',
      command: '<%= config.bin %> <%= command.id %> --state completed --json',
    },
  ];
  static override flags = {
    state: Flags.option({
      options: ['failed', 'waiting', 'delayed', 'active', 'completed'] as const,
      default: 'failed',
      description: 'which jobs',
    })(),
    limit: Flags.integer({ description: 'at most this many jobs', default: 100, min: 1, max: 10_000 }),
  };

  async run(): Promise<JobSummary[]> {
    const { flags } = await this.parse(JobsList);
    const queue = await this.openQueue(flags.queue);
    const jobs = await queue.list(flags.state, flags.limit);
    this.log(jobs.length === 0 ? `No ${flags.state} jobs.` : renderTable(JOB_COLUMNS, jobs));
    return jobs;
  }
}
