/**
 * Every payload the vendor's Python SDK builds validates: the three fixtures use every field
 * oaaclient 1.1.15 can emit (`packages/core/fixtures/sdk-fields`, reproduced with the builders).
 */
import { describe, expect, it } from 'vitest';
import { sdkFixture } from '../private-test-helpers/fixtures.js';
import { validate } from './index.js';
import { jsonChunks } from '../serialize/json-chunks.js';
import { validateAsRead } from './streaming.js';

describe('payloads with every field the vendor SDK 1.1.15 emits', () => {
  it.each(['application', 'identity_provider', 'hris'] as const)(
    '%s validates without errors or warnings',
    (template) => {
      const result = validate(template, sdkFixture(template));
      expect(result).toEqual({ errors: [], warnings: [] });
    },
  );

  it('application validates as it is serialized, too', async () => {
    const checked = validateAsRead('application', sdkFixture('application'));
    const chunks: Buffer[] = [];
    for await (const chunk of jsonChunks(checked.value)) chunks.push(chunk);
    expect(checked.complete).toBe(true);
    expect(checked.errors).toEqual([]);
    expect(JSON.parse(Buffer.concat(chunks).toString('utf8'))).toEqual(sdkFixture('application'));
  });

  it('application warns once per identity no identity provider knows, as the service does', () => {
    const { errors, warnings } = validate('application', sdkFixture('application'), {
      knownIdentity: (identity) => identity === 'alt@example.com',
    });
    expect(errors).toEqual([]);
    expect(warnings.map((w) => w.field)).toEqual([
      'applications[0].local_groups[0].identities[0]',
      'applications[0].local_groups[1].identities[0]',
      'applications[0].local_users[0].identities[0]',
      'identity_to_permissions[2].identity',
    ]);
    expect(warnings[3]!.description).toMatch(/^Cannot find identity by names "idpuser@example.com"/);
  });
});
