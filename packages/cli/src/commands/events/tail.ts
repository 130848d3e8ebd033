import { resolve } from 'node:path';
import { Flags } from '@oclif/core';
import { cursorPath, readCursor, saveCursor } from '../../events/cursor-file.js';
import { parseDuration } from '../../events/duration.js';
import { eventLine } from '../../events/format-event.js';
import { ServiceCommand } from '../../service-command.js';

/** `oaa events tail [--follow]`. */
export default class EventsTail extends ServiceCommand {
  static override summary = 'Show new events since the last tail, from the continuous export.';
  static override description = `Reads the service's continuous event log (GET /api/v1/events/export) from where the previous "oaa events tail" against the same service stopped: the cursor is kept in the state directory (events-tail/) and saved after every event shown, so across restarts no event is shown twice or skipped. The first tail starts --since ago (default 1h). With --follow it keeps polling for new events until interrupted. --json prints one JSON object per line.`;
  static override examples = [
    { description: 'Events since the last tail', command: '<%= config.bin %> <%= command.id %>' },
    {
      description: 'Follow new events as JSON lines',
      command: '<%= config.bin %> <%= command.id %> --follow --json',
    },
  ];
  static override flags = {
    follow: Flags.boolean({ char: 'f', description: 'keep waiting for new events until interrupted' }),
    since: Flags.string({
      description: 'where the first tail starts: DURATION ago (default 1h; at most 32d)',
    }),
    reset: Flags.boolean({ description: 'forget the saved cursor and start --since ago' }),
    'poll-interval': Flags.integer({
      description: 'seconds between polls with --follow',
      default: 5,
      min: 1,
    }),
  };

  async run(): Promise<undefined> {
    const { flags } = await this.parse(EventsTail);
    const sinceMs = parseDuration(flags.since ?? '1h');
    const connection = await this.connect(flags);
    const path = cursorPath(resolve(flags['state-dir']), connection.embedded ? 'embedded' : connection.url);
    const saved = flags.reset ? undefined : await readCursor(path);
    const events = connection.client.events.export({
      ...(saved === undefined ? { since: new Date(Date.now() - sinceMs) } : { cursor: saved }),
      follow: flags.follow,
      pollIntervalMs: flags['poll-interval'] * 1000,
      signal: this.signal,
    });
    try {
      for await (const { event, cursor } of events) {
        if (this.jsonEnabled()) this.logJsonLine(event);
        else this.log(eventLine(event));
        await saveCursor(path, connection.url, cursor);
      }
    } catch (error) {
      // Ctrl-C ends a --follow tail: the cursor of the last event shown is saved already.
      if (this.signal.aborted) return undefined;
      throw error;
    }
    return undefined;
  }
}
