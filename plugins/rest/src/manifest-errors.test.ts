/**
 * What a manifest with mistakes gets: every problem at once, each naming the manifest path and
 * its line and column, and saying what is allowed there.
 */
import { describe, expect, it } from 'vitest';
import { checkManifest, compileManifestText } from './manifest/load.js';

/** The problems of a manifest, as `line:column path: message`. */
function problems(text: string): string[] {
  return checkManifest(text, 'm.yaml').problems.map((p) => `${p.line}:${p.column} ${p.path}: ${p.message}`);
}

const GOOD = `version: 1
id: good
vars:
  url: { description: the URL }
secrets:
  token: { description: the token }
source:
  base_url: '{{ vars.url }}'
  auth: { type: bearer, secret: token }
streams:
  projects:
    path: /projects.json
    pagination: { type: offset, offset_param: offset, limit_param: limit, limit: 100, total: total_count }
    records: projects
  memberships:
    for_each: projects
    path: /projects/{{ record.id }}/memberships.json
    records: memberships
indexes:
  project_name:
    stream: projects
    key: id
    value: name
payload:
  template: application
  application: '{ "name": "Tracker", "application_type": "Tracker" }'
  local_users:
    stream: memberships
    map: |
      {
        "name": user.name,
        "unique_id": $string(user.id)
      }
`;

describe('manifest problems', () => {
  it('has none for a good manifest', () => {
    expect(problems(GOOD)).toEqual([]);
    const compiled = compileManifestText(GOOD, 'good.yaml');
    expect([...compiled.streams.keys()]).toEqual(['projects', 'memberships']);
    expect(compiled.checkStream).toBe('projects');
  });

  it('names the path and line of a wrong type and of an unknown field, with the fields allowed', () => {
    const text = GOOD.replace('    records: projects', '    records: projects\n    paging: yes').replace(
      '  auth: { type: bearer, secret: token }',
      '  auth: { type: bearer, secret: token }\n  timeout_ms: soon',
    );
    expect(problems(text)).toEqual([
      '10:15 source.timeout_ms: must be a number, not the string "soon"',
      '16:5 streams.projects.paging: unknown field; allowed here: path, method, params, headers, body, partitions, for_each, concurrency, pagination, records, drop, ignore_field_case, fields, cache, max_pages',
    ]);
    // `size` is a field of page pagination, not of offset.
    const offset = GOOD.replace('limit: 100,', 'limit: 100, size: 3,');
    expect(problems(offset)).toEqual([
      '13:87 streams.projects.pagination.size: unknown field; allowed here: type, offset_param, limit_param, limit, start, total',
    ]);
  });

  it('says which pagination and auth types there are', () => {
    const text = GOOD.replace('type: offset', 'type: pages').replace('type: bearer', 'type: token');
    expect(problems(text)).toEqual([
      '9:17 source.auth.type: must be one of none, bearer, basic, header, query, oauth2_client_credentials, not the string "token"',
      '13:25 streams.projects.pagination.type: must be one of none, offset, page, cursor, link, not the string "pages"',
    ]);
  });

  it('names a missing field at the mapping it is missing from', () => {
    const text = GOOD.replace("  base_url: '{{ vars.url }}'\n", '');
    expect(problems(text)).toEqual(['8:3 source.base_url: is required']);
  });

  it('reads the version first', () => {
    expect(problems(GOOD.replace('version: 1', 'version: 2'))).toEqual([
      '1:10 version: is 2; this oaakit reads manifest version 1',
    ]);
    expect(problems(GOOD.replace('version: 1\n', ''))).toEqual([
      '1:1 (the manifest): has no version; this oaakit reads manifest version 1 (add version: 1)',
    ]);
  });

  it('gives the line and column of a JSONata syntax error inside a block', () => {
    const text = GOOD.replace('"unique_id": $string(user.id)', '"unique_id": $string(user.id');
    // The block starts on line 29; JSONata finds the call unclosed at the closing brace, line 33.
    expect(problems(text)).toEqual([
      '33:7 payload.local_users.map: the expression "{ \\"name\\": user.name, \\"unique_id\\": $string(user.id }" is not valid JSONata: Expected ")", got "}"',
    ]);
  });

  it('names what points nowhere: a secret, a stream, an index, a var', () => {
    const text = GOOD.replace('secret: token', 'secret: apiKey')
      .replace('for_each: projects', 'for_each: project')
      .replace('"name": user.name', `"name": $index('project_names', user.id) & $vars.host`);
    expect(problems(text)).toEqual([
      '9:33 source.auth.secret: names the secret "apiKey", which secrets does not declare; declared: token',
      '16:15 streams.memberships.for_each: names the stream "project", which streams does not declare; declared: projects, memberships',
      '31:27 payload.local_users.map: $index names the index "project_names", which indexes does not declare; declared: project_name',
      '31:60 payload.local_users.map: names the var "host", which vars does not declare; declared: url',
    ]);
  });

  it('refuses record in a stream without for_each, and streams that read each other in a cycle', () => {
    const text = GOOD.replace('path: /projects.json', 'path: /projects/{{ record.id }}.json').replace(
      '  projects:\n',
      '  projects:\n    for_each: memberships\n',
    );
    expect(problems(text)).toEqual([
      '12:15 streams.projects.for_each: for_each streams read each other in a cycle: projects -> memberships -> projects',
    ]);
    const noRecord = GOOD.replace('path: /projects.json', 'path: /projects/{{ record.id }}.json');
    expect(problems(noRecord)).toEqual([
      '12:23 streams.projects.path: record is only known in the templates of a stream with for_each; stream "projects" has none',
    ]);
  });

  it('refuses indexes built from each other in a cycle', () => {
    const text = GOOD.replace(
      '    value: name\n',
      "    value: $index('other', id)\n  other:\n    stream: projects\n    key: id\n    value: $index('project_name', id)\n",
    );
    expect(problems(text)).toEqual([
      '20:3 indexes.project_name: indexes are built from each other in a cycle: project_name -> other -> project_name',
    ]);
  });

  it('reports a YAML syntax error at its line', () => {
    expect(problems(GOOD.replace('  projects:\n', '  projects:\n   bad: [\n'))[0]).toMatch(
      /^13:11 \(YAML\): /,
    );
  });

  it('lists every problem in the error, sorted by line', () => {
    const text = GOOD.replace('id: good', 'id: Good!').replace('secret: token', 'secret: nope');
    expect(() => compileManifestText(text, 'm.yaml')).toThrow(
      expect.objectContaining({
        code: 'MANIFEST_INVALID',
        message:
          'manifest m.yaml is not valid (1 problem):\n  m.yaml:2:5: id: must be lower-case letters, digits and dashes, e.g. redmine',
      }),
    );
    try {
      compileManifestText(text.replace('id: Good!', 'id: good'), 'm.yaml');
    } catch (error) {
      expect((error as { details: { problems: unknown[] } }).details.problems).toEqual([
        {
          path: 'source.auth.secret',
          line: 9,
          column: 33,
          message: 'names the secret "nope", which secrets does not declare; declared: token',
        },
      ]);
    }
  });
});
