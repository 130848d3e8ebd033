/**
 * What the console's providers page shows: each provider with its icon flag and its data sources,
 * each with its status, last push and the warnings of that push (from the push's OAA_PUSH event,
 * the record the events API serves).
 */
import type { Db } from '../../db/schema.js';
import { dataSourcesOf, type DataSourceRecord } from '../../store/data-sources.js';
import type { EventError } from '../../store/events.js';
import { providerFromRow, type ProviderRecord } from '../../store/providers.js';

/** Most warnings listed per data source (the event keeps up to 1,000). */
const MAX_WARNINGS_SHOWN = 50;

/** A data source with its last push. */
export interface DataSourceOverview extends DataSourceRecord {
  last_push_at: string | null;
  warning_count: number;
  warnings: string[];
}

/** A provider as the providers page shows it. */
export interface ProviderOverview {
  provider: ProviderRecord;
  has_icon: boolean;
  data_sources: DataSourceOverview[];
}

/** Every provider, oldest first, with its data sources. */
export function providerOverview(db: Db): ProviderOverview[] {
  const providers = db
    .prepare<[], { record: string }>('SELECT record FROM providers ORDER BY seq')
    .all()
    .map(providerFromRow);
  const icon = db.prepare<[string], number>('SELECT 1 FROM icons WHERE provider_id = ?').pluck();
  const pushedAt = db
    .prepare<[string], string>('SELECT pushed_at FROM submissions WHERE data_source_id = ?')
    .pluck();
  const lastPush = db.prepare<[string], { timestamp: string; error: string | null }>(
    "SELECT timestamp, error FROM events WHERE event_type = 'OAA_PUSH' AND entity_id = ? ORDER BY seq DESC LIMIT 1",
  );
  return providers.map((provider) => ({
    provider,
    has_icon: icon.get(provider.id) !== undefined,
    data_sources: dataSourcesOf(db, provider.id).map((ds) => {
      const event = lastPush.get(ds.id);
      const error = event?.error == null ? null : (JSON.parse(event.error) as EventError);
      const texts = error === null ? [] : Object.values(error.metadata);
      return {
        ...ds,
        last_push_at: pushedAt.get(ds.id) ?? event?.timestamp ?? null,
        warning_count: texts.length,
        warnings: texts.slice(0, MAX_WARNINGS_SHOWN),
      };
    }),
  }));
}
