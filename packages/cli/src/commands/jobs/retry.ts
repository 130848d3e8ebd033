import { Args } from '@oclif/core';
import type { JobSummary } from '@oaakit/fleet';
import { JobsCommand } from '../../fleet/jobs-command.js';

/** `oaa jobs retry ID`. */
export default class JobsRetry extends JobsCommand {
  static override summary = 'Run a failed job again, with all its attempts.';
  static override examples = [
    {
      description: 'Retry job 42 once its cause is fixed',
      command: '<%= config.bin %> <%= command.id %> 42',
    },
  ];
  static override args = { id: Args.string({ description: 'id of a failed job', required: true }) };

  async run(): Promise<JobSummary> {
    const { args, flags } = await this.parse(JobsRetry);
    const queue = await this.openQueue(flags.queue);
    const job = await queue.retry(args.id);
    this.log(`Job ${job.id} (${job.connectorId}) is ${job.state} again.`);
    return job;
  }
}
