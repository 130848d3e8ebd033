/** JSON Schemas generated from the zod schemas: zod stays the only definition of each shape. */
import * as z from 'zod';
import { csvPushRequestSchema, multipartRequestSchema, pushRequestSchema } from '../schemas/requests.js';
import { payloadSchemas } from '../schemas/templates.js';

const TITLES = {
  application: 'OAA application payload',
  identity_provider: 'OAA identity_provider payload',
  hris: 'OAA hris payload',
} as const;

/** The JSON Schema (draft 2020-12) of each payload template and push request body, by file name. */
export function jsonSchemas(): Record<string, object> {
  const out: Record<string, object> = {};
  for (const [template, schema] of Object.entries(payloadSchemas)) {
    out[template.replace('_', '-')] = {
      ...z.toJSONSchema(schema, { unrepresentable: 'any', io: 'input' }),
      title: TITLES[template as keyof typeof TITLES],
      description:
        'Refinements the JSON Schema cannot express (UTF-8 byte limits, RFC 3339 dates, references) are checked by `oaa validate`.',
    };
  }
  out['push-request'] = z.toJSONSchema(pushRequestSchema, { unrepresentable: 'any', io: 'input' });
  out['csv-push-request'] = z.toJSONSchema(csvPushRequestSchema, { unrepresentable: 'any', io: 'input' });
  out['multipart-request'] = z.toJSONSchema(multipartRequestSchema, { unrepresentable: 'any', io: 'input' });
  return out;
}
