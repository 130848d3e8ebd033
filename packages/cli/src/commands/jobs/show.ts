import { Args } from '@oclif/core';
import type { JobDetails } from '@oaakit/fleet';
import { JobsCommand } from '../../fleet/jobs-command.js';
import { renderFields } from '../../output/table.js';

/** `oaa jobs show ID`. */
export default class JobsShow extends JobsCommand {
  static override summary = 'Show one run job: its state, attempts, failure and result.';
  static override examples = [
    { description: 'Why a job failed', command: '<%= config.bin %> <%= command.id %> 42' },
  ];
  static override args = { id: Args.string({ description: 'job id (from oaa jobs list)', required: true }) };

  async run(): Promise<JobDetails> {
    const { args, flags } = await this.parse(JobsShow);
    const queue = await this.openQueue(flags.queue);
    const job = await queue.show(args.id);
    this.log(
      renderFields([
        ['id', job.id],
        ['connector', job.connectorId],
        ['state', job.state],
        ['attempts', `${job.attemptsMade}/${job.attempts}`],
        ['created', job.createdAt],
        ['processed', job.processedAt],
        ['finished', job.finishedAt],
        ['schedule', job.schedulerId],
        ['failure', job.failedReason],
        ['result', job.result === undefined ? undefined : JSON.stringify(job.result)],
      ]),
    );
    return job;
  }
}
