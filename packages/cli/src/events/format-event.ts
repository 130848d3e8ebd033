/** One event as a line for humans, and the columns of `oaa events list`. */
import type { ServiceEvent } from '@oaakit/core';
import type { Column } from '../output/table.js';

/** Columns of `oaa events list`. */
export const EVENT_COLUMNS: readonly Column<ServiceEvent>[] = [
  { header: 'TIME', get: (e) => e.timestamp },
  { header: 'SEVERITY', get: (e) => e.severity },
  { header: 'TYPE', get: (e) => e.event_type },
  { header: 'ENTITY', get: (e) => e.entity_name },
  { header: 'MESSAGE', get: (e) => e.message },
];

/** `2026-06-01T00:00:00.000Z  INFO     OAA_PUSH  prod  Payload ... parsed` */
export function eventLine(e: ServiceEvent): string {
  const warn = e.error?.metadata ? Object.values(e.error.metadata).length : 0;
  return [
    e.timestamp,
    e.severity.padEnd(7),
    e.event_type,
    e.entity_name ?? '-',
    (e.message ?? '').replace(/[\r\n\t]+/g, ' ') + (warn > 0 ? ` (${warn} detail(s))` : ''),
  ].join('  ');
}
