import { Args } from '@oclif/core';
import { JobsCommand } from '../../fleet/jobs-command.js';

/** `oaa jobs remove ID`. */
export default class JobsRemove extends JobsCommand {
  static override summary = 'Remove a job that is not running (a kept failed job, say).';
  static override examples = [
    { description: 'Forget failed job 42', command: '<%= config.bin %> <%= command.id %> 42' },
  ];
  static override args = { id: Args.string({ description: 'job id', required: true }) };

  async run(): Promise<{ id: string; removed: true }> {
    const { args, flags } = await this.parse(JobsRemove);
    const queue = await this.openQueue(flags.queue);
    const removed = await queue.remove(args.id);
    this.log(`Removed job ${removed.id}.`);
    return removed;
  }
}
