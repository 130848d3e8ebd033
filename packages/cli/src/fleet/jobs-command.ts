/** The base of the `oaa jobs` commands: `--queue`, and the runs queue opened once and closed at the end. */
import type { RunsQueue } from '@oaakit/fleet';
import { BaseCommand } from '../base-command.js';
import { queueFlag, queueTarget, targetSecrets } from './queue-flags.js';

/** A command over the runs queue of a fleet. */
export abstract class JobsCommand extends BaseCommand {
  static override baseFlags = { ...BaseCommand.baseFlags, queue: queueFlag };

  /** The runs queue of `--queue` (or `OAA_QUEUE_URL`), closed when the command ends. */
  protected async openQueue(flag: string | undefined): Promise<RunsQueue> {
    const target = await queueTarget(flag);
    for (const secret of targetSecrets(target)) this.addSecret(secret);
    const { RunsQueue } = await import('@oaakit/fleet');
    const queue = await RunsQueue.open(target);
    this.onCleanup(() => queue.close());
    return queue;
  }
}
