import { Flags } from '@oclif/core';
import type { ServiceEvent } from '@oaakit/core';
import { parseDuration } from '../../events/duration.js';
import { EVENT_COLUMNS } from '../../events/format-event.js';
import { renderTable } from '../../output/table.js';
import { ServiceCommand } from '../../service-command.js';

/** `oaa events list [--filter F] [--since DURATION]`. */
export default class EventsList extends ServiceCommand {
  static override summary = 'List platform events, optionally filtered.';
  static override description = `Lists the service's events (GET /api/preview/events), oldest first: pushes (OAA_PUSH, DATASOURCE_PARSED), data source and provider changes, API key changes, subscription deliveries. --filter takes a SCIM filter on category, severity, event_type, timestamp, entity, entity_id, provider_id and name (eq ne co sw ew gt ge lt le pr, and/or/not, parentheses, quoted values). --since keeps events of the last DURATION; the service accepts at most 32 days.`;
  static override examples = [
    { description: 'Events of the last hour', command: '<%= config.bin %> <%= command.id %> --since 1h' },
    {
      description: 'Failed or warned pushes of the last week, as JSON',
      command: `<%= config.bin %> <%= command.id %> --since 7d --filter 'event_type eq "OAA_PUSH" and not (severity eq "INFO")' --json`,
    },
  ];
  static override flags = {
    filter: Flags.string({ description: 'SCIM filter, e.g. \'severity eq "ERROR"\'' }),
    since: Flags.string({ description: 'only events of the last DURATION (90s, 15m, 2h, 7d; at most 32d)' }),
    'page-size': Flags.integer({ description: 'events per request (1-10000)', min: 1, max: 10_000 }),
  };

  async run(): Promise<ServiceEvent[]> {
    const { flags } = await this.parse(EventsList);
    const since = flags.since === undefined ? undefined : new Date(Date.now() - parseDuration(flags.since));
    const { client } = await this.connect(flags);
    const events = await client.events
      .list({
        ...(flags.filter === undefined ? {} : { filter: flags.filter }),
        ...(since === undefined ? {} : { since }),
        ...(flags['page-size'] === undefined ? {} : { pageSize: flags['page-size'] }),
        signal: this.signal,
      })
      .toArray();
    if (!this.jsonEnabled())
      this.log(events.length === 0 ? 'No events match.' : renderTable(EVENT_COLUMNS, events));
    return events;
  }
}
