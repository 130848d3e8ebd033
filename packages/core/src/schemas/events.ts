/** Platform events and their export. */
import * as z from 'zod';
import { opt } from './primitives.js';

export const EVENT_CATEGORIES = ['SYSTEM', 'INTEGRATIONS', 'RULE', 'TAG', 'NOTIFICATION'] as const;
export const EVENT_SEVERITIES = ['INFO', 'WARNING', 'ERROR'] as const;
export const EVENT_ENTITIES = ['DATASOURCE', 'PROVIDER', 'RULE', 'TAG', 'NOTIFICATION'] as const;

export const eventErrorSchema = z.looseObject({
  message: opt(z.string()),
  metadata: opt(z.record(z.string(), z.string())),
  reason: opt(z.string()),
  resolution: opt(z.string()),
  request_id: opt(z.string()),
});

export const eventSchema = z.looseObject({
  id: z.string(),
  timestamp: z.string(),
  category: z.enum(EVENT_CATEGORIES),
  severity: z.enum(EVENT_SEVERITIES),
  name: opt(z.string()),
  message: opt(z.string()),
  provider_id: opt(z.string()),
  entity: opt(z.enum(EVENT_ENTITIES)),
  entity_id: opt(z.string()),
  entity_name: opt(z.string()),
  event_type: z.string(),
  error: opt(eventErrorSchema),
  outcome: opt(z.enum(['SUCCESS', 'FAILED'])),
  actor: opt(z.string()),
  query: opt(z.unknown()),
});
export type ServiceEvent = z.infer<typeof eventSchema>;

/** Response of `GET /api/v1/events/export`. */
export const eventExportSchema = z.looseObject({
  events: z.array(eventSchema),
  next_page_token: opt(z.string()),
});
