import { describe, expect, it } from 'vitest';
import { detectIconMime } from '../icons/detect.js';
import { samplePayload, useEmulator, violations } from '../private-test-helpers/harness.js';

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(32, 1),
]);
const SVG = Buffer.from(
  '<?xml version="1.0"?>\n<!-- logo -->\n<!DOCTYPE svg [<!ENTITY x "y">]>\n<svg xmlns="http://www.w3.org/2000/svg"></svg>',
);

describe('icon detection', () => {
  it.each([
    [PNG, 'image/png'],
    [SVG, 'image/svg+xml'],
    [Buffer.from('\ufeff  <svg/>'), 'image/svg+xml'],
    [Buffer.from('<svgx></svgx>'), undefined],
    [Buffer.from('<html><svg></svg></html>'), undefined],
    [Buffer.from('GIF89a'), undefined],
    [Buffer.from('<!-- unterminated'), undefined],
  ])('recognises %s', (bytes, mime) => {
    expect(detectIconMime(bytes)).toBe(mime);
  });
});

describe('provider icons', () => {
  const h = useEmulator();

  it('sets from icon_base64 alone, reads it back, and deletes it', async () => {
    const p = await h().provider('Iconic');
    const path = `/api/v1/providers/custom/${p.id}:icon`;
    expect((await h().call('POST', path, { icon_base64: PNG.toString('base64') })).body).toEqual({});
    expect((await h().call('GET', path)).body).toEqual({
      mime_type: 'image/png',
      icon_base64: PNG.toString('base64'),
    });
    expect((await h().call('POST', path, { id: p.id, icon_base64: SVG.toString('base64') })).status).toBe(
      200,
    );
    expect((await h().call('GET', path)).body.mime_type).toBe('image/svg+xml');
    expect((await h().call('DELETE', path)).body).toEqual({});
    const gone = await h().call('GET', path);
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe('NotFound');
  });

  it.each([
    ['content that is neither PNG nor SVG', Buffer.from('GIF89a........').toString('base64'), 'PNG or SVG'],
    [
      'more than 64 KB',
      Buffer.concat([PNG, Buffer.alloc(64 * 1024)]).toString('base64'),
      'at most 65536 bytes',
    ],
    ['text that is not base64', '<svg></svg>', 'base64'],
  ])('rejects %s naming icon_base64', async (_what, icon, message) => {
    const p = await h().provider();
    const r = await h().call('POST', `/api/v1/providers/custom/${p.id}:icon`, { icon_base64: icon });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('InvalidArgument');
    expect(violations(r.body)).toEqual([
      { field: 'icon_base64', description: expect.stringContaining(message) },
    ]);
  });

  it('rejects a body id other than the path, and 404s for an unknown provider', async () => {
    const p = await h().provider();
    const r = await h().call('POST', `/api/v1/providers/custom/${p.id}:icon`, {
      id: 'other',
      icon_base64: PNG.toString('base64'),
    });
    expect(violations(r.body)[0]?.field).toBe('id');
    const unknown = await h().call(
      'POST',
      '/api/v1/providers/custom/00000000-0000-4000-8000-000000000000:icon',
      { icon_base64: PNG.toString('base64') },
    );
    expect(unknown.status).toBe(404);
  });

  it('finds an icon by application type once a push reported it', async () => {
    const t = await h().target();
    await h().call('POST', `/api/v1/providers/custom/${t.providerId}:icon`, {
      icon_base64: SVG.toString('base64'),
    });
    expect((await h().call('GET', '/api/v1/providers/custom:icon?app_or_idp_type=acme')).status).toBe(404);
    await h().push(t.base, samplePayload());
    const byType = await h().call(
      'GET',
      '/api/v1/providers/custom:icon?app_or_idp_type=acme&custom_schema_type=application',
    );
    expect(byType.body.mime_type).toBe('image/svg+xml');
    const byNode = await h().call('GET', '/api/v1/providers/custom:icon?node_type=OAA.acme.User');
    expect(byNode.status).toBe(200);
    const missing = await h().call('GET', '/api/v1/providers/custom:icon');
    expect(missing.status).toBe(400);
    expect(violations(missing.body)[0]?.field).toBe('app_or_idp_type');
  });
});
