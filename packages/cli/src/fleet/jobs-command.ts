/**
 * The base of the `oaa jobs` commands: `--queue` (or `--queue-file`), and the runs queue opened once
 * and closed at the end.
 */
import type { RunsQueue } from '@oaakit/fleet';
import { BaseCommand } from '../base-command.js';
import { queueFlags, queueTarget, targetSecrets } from './queue-flags.js';

/** A command over the runs queue of a fleet. */
export abstract class JobsCommand extends BaseCommand {
  static override baseFlags = { ...BaseCommand.baseFlags, ...queueFlags };

  /** The runs queue of `--queue` (`--queue-file`, `OAA_QUEUE_URL`), closed when the command ends. */
  protected async openQueue(url: string | undefined): Promise<RunsQueue> {
    const target = await queueTarget(url, this.secretOrigin('queue')?.origin);
    for (const secret of targetSecrets(target)) this.addSecret(secret);
    const { RunsQueue } = await import('@oaakit/fleet');
    const queue = await RunsQueue.open(target);
    this.onCleanup(() => queue.close());
    return queue;
  }
}
