import type { QueueStats } from '@oaakit/fleet';
import { JobsCommand } from '../../fleet/jobs-command.js';
import { renderFields } from '../../output/table.js';

/** `oaa jobs stats`. */
export default class JobsStats extends JobsCommand {
  static override summary = 'Summarize a fleet: jobs per state, the oldest waiting job, schedules, workers.';
  static override examples = [
    {
      description: 'How the fleet is doing',
      command: '<%= config.bin %> <%= command.id %> --queue redis://127.0.0.1:6379',
    },
  ];

  async run(): Promise<QueueStats> {
    const { flags } = await this.parse(JobsStats);
    const queue = await this.openQueue(flags.queue);
    const stats = await queue.stats();
    this.log(
      renderFields([
        ['queue', stats.queue],
        ...Object.entries(stats.counts).map(([state, n]) => [state, n] as const),
        ['oldest waiting (s)', Math.round(stats.oldestWaitingSeconds)],
        ['schedules', stats.schedules.length === 0 ? undefined : stats.schedules.join(', ')],
        ['workers', stats.workers],
      ]),
    );
    return stats;
  }
}
