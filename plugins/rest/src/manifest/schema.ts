/**
 * The manifest format, version 1: a REST API described in YAML (`source`, `streams`, `indexes`)
 * and how its records become a payload (`payload`). This zod schema is the one definition of the
 * format: it checks manifests, and the JSON Schema for editors (`schema/manifest.schema.json`) and
 * the reference in docs/declarative-connectors.md are generated from it, from the descriptions here.
 *
 * Three kinds of strings carry logic, and the schema says which a field takes:
 * - a template: text with `{{ expression }}` parts, each a JSONata expression over
 *   `{ vars, record, partition }` (`vars.url`, `record.id`); a template that is one `{{ }}` part
 *   keeps the expression's type (a number stays a number);
 * - an expression: one JSONata expression (a record selector, a total, a key);
 * - a mapping: one JSONata expression over a record that makes entities.
 * Secrets never enter templates or expressions: only `source.auth` names them.
 */
import { PERMISSION_TYPES, PROPERTY_TYPES, z } from '@oaakit/core';

/** The manifest format versions this package reads. */
export const MANIFEST_VERSIONS = [1] as const;

/** Names of streams, indexes, vars and secrets: what a YAML key and a JSONata name both allow. */
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const nameOf = (what: string) =>
  z
    .string()
    .regex(NAME, { error: `must be a ${what} name: letters, digits and _, not starting with a digit` });

const template = (description: string) => z.string().meta({ description: `${description} (a template)` });
const expression = (description: string) =>
  z
    .string()
    .min(1)
    .meta({ description: `${description} (a JSONata expression)` });

/** A parameter or header value: a template, or a number or boolean written as it is. */
const paramValue = z
  .union([z.string(), z.number(), z.boolean()])
  .meta({ description: 'a template, or a number or boolean sent as it is' });
const params = (description: string) => z.record(z.string().min(1), paramValue).meta({ description });

const secretName = nameOf('secret').meta({ description: 'the name of a secret declared in `secrets`' });

const authSchema = z
  .discriminatedUnion(
    'type',
    [
      z
        .strictObject({ type: z.literal('none').meta({ description: 'no credentials' }) })
        .meta({ description: 'no credentials are sent' }),
      z
        .strictObject({
          type: z.literal('bearer').meta({ description: 'Authorization: Bearer <secret>' }),
          secret: secretName,
        })
        .meta({ description: 'Authorization: Bearer <secret>' }),
      z
        .strictObject({
          type: z.literal('basic').meta({ description: 'Authorization: Basic <username:secret>' }),
          username: template('the username'),
          secret: secretName.meta({ description: 'the secret holding the password' }),
        })
        .meta({ description: 'Authorization: Basic <username:secret>' }),
      z
        .strictObject({
          type: z.literal('header').meta({ description: 'the secret in a header of its own' }),
          name: z.string().min(1).meta({ description: 'the header, e.g. X-Redmine-API-Key' }),
          secret: secretName,
        })
        .meta({ description: 'the secret in a header of its own, e.g. X-API-Key: <secret>' }),
      z
        .strictObject({
          type: z.literal('query').meta({ description: 'the secret in a query parameter' }),
          name: z.string().min(1).meta({ description: 'the query parameter, e.g. key' }),
          secret: secretName,
        })
        .meta({ description: 'the secret in a query parameter of every request, e.g. ?key=<secret>' }),
      z
        .strictObject({
          type: z
            .literal('oauth2_client_credentials')
            .meta({ description: 'an OAuth2 access token of the client credentials grant (RFC 6749 4.4)' }),
          token_url: template('the token endpoint'),
          client_id: template('the client id'),
          secret: secretName.meta({ description: 'the secret holding the client secret' }),
          scopes: z.array(z.string().min(1)).optional().meta({ description: 'scopes asked for' }),
          client_auth: z.enum(['basic', 'body']).default('basic').meta({
            description:
              'how the client authenticates to the token endpoint: HTTP Basic (basic) or client_id and client_secret in the form (body)',
          }),
          params: params('more form parameters of the token request, e.g. audience').optional(),
        })
        .meta({
          description:
            'Authorization: Bearer <access token>, the token fetched from token_url with the client credentials grant and fetched again when it expires',
        }),
    ],
    { error: 'must have a type: none, bearer, basic, header, query or oauth2_client_credentials' },
  )
  .meta({ description: 'how requests are authenticated; every credential comes from a secret' });

const sourceSchema = z
  .strictObject({
    base_url: template('the base URL every stream path is appended to, e.g. {{ vars.url }}/api'),
    auth: authSchema.default({ type: 'none' }),
    headers: params('headers of every request, e.g. accept: application/json').optional(),
    rate_limit: z
      .strictObject({
        requests_per_second: z
          .number()
          .positive()
          .optional()
          .meta({ description: 'the most requests started per second' }),
        max_concurrency: z
          .union([z.int().min(1), z.string()])
          .optional()
          .meta({
            description:
              'the most requests in flight at once, across all streams: a number, or a template such as {{ vars.max_concurrency }} (a server of one process answers one request at a time)',
          }),
      })
      .optional()
      .meta({ description: 'how hard the source may be asked' }),
    timeout_ms: z
      .int()
      .min(1)
      .optional()
      .meta({ description: 'timeout of each request attempt, in milliseconds' }),
    retries: z.int().min(0).max(10).optional().meta({
      description:
        'retries of a request answered 429 or 5xx or not answered (default 3); Retry-After is honoured',
    }),
  })
  .meta({ description: 'where the API is and how to ask it' });

const paginationSchema = z
  .discriminatedUnion(
    'type',
    [
      z
        .strictObject({ type: z.literal('none').meta({ description: 'one request' }) })
        .meta({ description: 'one request answers everything' }),
      z
        .strictObject({
          type: z.literal('offset').meta({ description: 'offset and limit parameters' }),
          offset_param: z
            .string()
            .min(1)
            .meta({ description: 'the offset parameter, e.g. offset or startIndex' }),
          limit_param: z
            .string()
            .min(1)
            .meta({ description: 'the page size parameter, e.g. limit or count' }),
          limit: z.union([z.int().min(1), z.string()]).meta({
            description: 'records asked for per page: a number or a template, e.g. {{ vars.page_size }}',
          }),
          start: z.int().default(0).meta({ description: 'the first offset: 0, or 1 for SCIM startIndex' }),
          total: expression('the total number of records, read from each answer, e.g. total_count')
            .optional()
            .meta({
              description:
                'the total number of records, read from the answer, e.g. total_count (a JSONata expression); reading stops once that many were read. Without it, reading stops at a page shorter than limit',
            }),
        })
        .meta({
          description:
            'offset/limit paging: the next offset is the last one plus the records actually returned (servers may return fewer than asked); an empty page ends the stream',
        }),
      z
        .strictObject({
          type: z.literal('page').meta({ description: 'page number parameter' }),
          page_param: z.string().min(1).meta({ description: 'the page number parameter, e.g. page' }),
          size_param: z
            .string()
            .min(1)
            .optional()
            .meta({ description: 'the page size parameter, e.g. per_page' }),
          size: z
            .union([z.int().min(1), z.string()])
            .optional()
            .meta({ description: 'records asked for per page: a number or a template' }),
          start: z.int().default(1).meta({ description: 'the first page number' }),
          total_pages: expression('the number of pages, read from each answer').optional().meta({
            description:
              'the number of pages, read from the answer (a JSONata expression); without it, reading stops at an empty page or one shorter than size',
          }),
        })
        .meta({ description: 'page number paging: page start, start+1, ... until an empty or short page' }),
      z
        .strictObject({
          type: z.literal('cursor').meta({ description: 'a cursor from each answer' }),
          next: expression('the next cursor, read from the answer body, e.g. meta.next_cursor')
            .optional()
            .meta({
              description:
                'where the next cursor is in the answer body, e.g. response_metadata.next_cursor (a JSONata expression)',
            }),
          header: z
            .string()
            .min(1)
            .optional()
            .meta({ description: 'the answer header holding the next cursor, instead of next' }),
          param: z.string().min(1).optional().meta({
            description:
              'the query parameter the cursor is sent in; without it, the cursor is the URL of the next page (absolute or relative to the answered one)',
          }),
        })
        .meta({
          description:
            'cursor paging: the next page is asked for with the cursor of the last answer, from its body (next) or a header (header); no cursor (or an empty one) ends the stream',
        }),
      z
        .strictObject({ type: z.literal('link').meta({ description: 'RFC 8288 Link: <...>; rel="next"' }) })
        .meta({
          description:
            'the URL of the next page is the Link header\'s rel="next" target (RFC 8288); none ends the stream',
        }),
    ],
    { error: 'must have a type: none, offset, page, cursor or link' },
  )
  .meta({ description: 'how the stream pages through the API' });

const streamSchema = z
  .strictObject({
    path: template('the path below source.base_url, e.g. /projects/{{ record.id }}/memberships.json'),
    method: z.enum(['GET', 'POST']).default('GET').meta({ description: 'the HTTP method (POST sends body)' }),
    params: params('query parameters, e.g. status: 1').optional(),
    headers: params("headers of this stream's requests").optional(),
    body: z
      .unknown()
      .optional()
      .meta({ description: 'the JSON body of a POST; strings in it are templates' }),
    partitions: z
      .array(z.record(z.string().min(1), paramValue))
      .min(1)
      .optional()
      .meta({
        description:
          'parameter sets: the stream is read once per set, each set over params; the mapping sees the set as $partition (e.g. users once per status)',
      }),
    for_each: nameOf('stream').optional().meta({
      description:
        'fan-out: the stream is read once per record of that stream, which templates see as record (e.g. path: /projects/{{ record.id }}/memberships.json) and mappings as $parent',
    }),
    concurrency: z
      .int()
      .min(1)
      .max(64)
      .default(1)
      .meta({ description: 'with for_each: how many records are read at once, in order' }),
    pagination: paginationSchema.default({ type: 'none' }),
    records: expression('where the records are in each answer, e.g. users').optional().meta({
      description:
        'where the records are in each answer, e.g. users or data.items (a JSONata expression); an object found is one record. Default: the answer itself',
    }),
    drop: z
      .array(z.string().regex(/^[^.]+(\.[^.]+)*$/))
      .optional()
      .meta({
        description:
          'fields removed from every record as soon as it is read (dotted paths, e.g. api_key): never mapped, shown by oaa manifest try, or kept',
      }),
    ignore_field_case: z.boolean().default(false).meta({
      description:
        "read the records' field names without regard to case, as SCIM's attribute names are (RFC 7643 2.1): a field spelled otherwise than the manifest spells it is read under the manifest's spelling",
    }),
    fields: z
      .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), expression('a field added to each record'))
      .optional()
      .meta({
        description:
          'fields added to every record as it is read, each a JSONata expression over the record: computed once and read by every mapping and index as any other field (for a value several of them derive, e.g. a list of role names)',
      }),
    cache: z.boolean().default(false).meta({
      description:
        'keep the records in memory after the first read, for a stream that several entity kinds or indexes read (memory then grows with the stream)',
    }),
    max_pages: z
      .int()
      .min(1)
      .optional()
      .meta({ description: 'a guard: reading more pages than this (per partition and record) is an error' }),
  })
  .meta({ description: 'one list of records of the API' });

const indexSchema = z
  .strictObject({
    stream: nameOf('stream').meta({ description: 'the stream whose records are indexed' }),
    key: expression('the key (or list of keys) of each record, e.g. id'),
    value: expression('what is kept for each key, e.g. login').optional().meta({
      description:
        'what is kept of each record for each of its keys, e.g. login (a JSONata expression over the record, with $key the key; default the record)',
    }),
    ignore_case: z
      .boolean()
      .default(false)
      .meta({ description: 'keys compare without case, as payload names do' }),
  })
  .meta({
    description:
      'a lookup table built by reading a stream once: $index(name, key) in any expression gives the values kept for key, in stream order',
  });

const varSchema = z
  .strictObject({
    description: z
      .string()
      .min(1)
      .meta({ description: 'what the value is, shown when it is missing or wrong' }),
    type: z
      .enum(['string', 'number', 'integer', 'boolean', 'list', 'object'])
      .default('string')
      .meta({ description: 'the type of the value' }),
    default: z
      .unknown()
      .optional()
      .meta({ description: 'the value when the config gives none; without it, the var is required' }),
  })
  .meta({ description: 'a value the connector config gives in vars' });

const secretSchema = z
  .strictObject({
    description: z.string().min(1).meta({ description: 'what the secret is, shown when it is missing' }),
  })
  .meta({ description: 'a secret the connector entry gives in secrets (a reference, never the value)' });

/** One source of entities of a kind: a stream and a mapping, or a mapping evaluated once. */
function entitySource(extra: Record<string, z.ZodType> = {}) {
  return z
    .strictObject({
      stream: nameOf('stream').optional().meta({
        description: 'the stream whose records are mapped; without it, map is evaluated once over {}',
      }),
      map: expression('the mapping').meta({
        description:
          'a JSONata expression over one record ($ the record; $vars, $partition, $parent and the functions bound) giving an entity, a list of entities, or nothing; a string s stands for { "name": s }',
      }),
      distinct: z.boolean().default(false).meta({
        description:
          'drop an entity whose key (id, else unique_id, else name, compared without case) this kind already has: for entities many records name, e.g. roles named by users',
      }),
      warn: z
        .strictObject({
          values: expression('what of each record to report, e.g. the members that name no one'),
          message: z.string().min(1).meta({ description: 'the warning, once for all the values found' }),
        })
        .optional()
        .meta({
          description:
            "a finding to report: values is a JSONata expression over each record mapped (a list, or nothing); when any record gives values, one warning with message, their count and the first five goes into the run's log and result",
        }),
      ...extra,
    })
    .meta({ description: 'where entities of this kind come from' });
}

function entities(description: string, extra: Record<string, z.ZodType> = {}) {
  const one = entitySource(extra);
  return z
    .union([one, z.array(one).min(1)])
    .optional()
    .meta({ description: `${description}: one source, or a list of sources` });
}

const propertyDefinitions = z
  .record(z.string().min(1), z.enum(PROPERTY_TYPES))
  .meta({ description: 'custom property name -> type (STRING, NUMBER, BOOLEAN, STRING_LIST, TIMESTAMP)' });

const resourceParent = {
  parent: expression('the key of the parent resource').optional().meta({
    description:
      "the key (id, else name) of the resource this one is a sub-resource of, read from the record (a JSONata expression); the resources then nest, and $resource(key) gives a resource's reference path",
  }),
};

const applicationPayload = z
  .strictObject({
    template: z.literal('application').meta({ description: 'an application payload' }),
    application: expression('the application').meta({
      description:
        'the application\'s own fields, evaluated once over {} (a JSONata expression), e.g. { "name": $vars.name, "application_type": "Redmine" }',
    }),
    properties: z
      .strictObject({
        application: propertyDefinitions.optional(),
        local_user: propertyDefinitions.optional(),
        local_group: propertyDefinitions.optional(),
        local_role: propertyDefinitions.optional(),
        local_access_creds: propertyDefinitions.optional(),
        role_assignment: propertyDefinitions.optional(),
        resources: z
          .record(z.string().min(1), propertyDefinitions)
          .optional()
          .meta({ description: 'resource type -> its custom property definitions' }),
      })
      .optional()
      .meta({ description: 'the custom properties entities may carry, by entity kind' }),
    permission_types: z
      .record(z.string().min(1), z.array(z.enum(PERMISSION_TYPES)).min(1))
      .optional()
      .meta({
        description:
          'the lookup table of source permission names to canonical types: a permission made without permission_type gets the types of its name here; a name missing here is an error that lists every such name',
      }),
    merge_grants: z.boolean().default(false).meta({
      description:
        'merge the grants of one identity (from every grant source) into one identity_to_permissions entry: for grants read per resource, e.g. memberships per project; they are then read whole before the first is written',
    }),
    local_users: entities('local users'),
    local_groups: entities('local groups'),
    local_roles: entities('local roles'),
    local_access_creds: entities('local access credentials'),
    resources: entities('resources', resourceParent),
    permissions: entities('permissions'),
    grants: entities('identity_to_permissions entries: who holds which roles and permissions on what'),
  })
  .meta({ description: 'an application payload: one application' });

const identityProviderPayload = z
  .strictObject({
    template: z.literal('identity_provider').meta({ description: 'an identity_provider payload' }),
    identity_provider: expression('the identity provider').meta({
      description:
        'the payload\'s own fields, evaluated once over {} (a JSONata expression), e.g. { "name": "Directory", "idp_type": "Directory" }',
    }),
    properties: z
      .strictObject({
        domain: propertyDefinitions.optional(),
        user: propertyDefinitions.optional(),
        group: propertyDefinitions.optional(),
        app: propertyDefinitions.optional(),
        app_assignment: propertyDefinitions.optional(),
      })
      .optional()
      .meta({ description: 'the custom properties entities may carry, by entity kind' }),
    domains: entities('domains'),
    users: entities('users'),
    groups: entities('groups'),
    apps: entities('apps'),
  })
  .meta({ description: 'an identity_provider payload' });

const hrisPayload = z
  .strictObject({
    template: z.literal('hris').meta({ description: 'an hris payload' }),
    hris: expression('the HR system').meta({
      description:
        "the payload's own fields, evaluated once over {} (a JSONata expression): name, hris_type and system",
    }),
    properties: z
      .strictObject({
        system: propertyDefinitions.optional(),
        employee: propertyDefinitions.optional(),
        group: propertyDefinitions.optional(),
      })
      .optional()
      .meta({ description: 'the custom properties entities may carry, by entity kind' }),
    employees: entities('employees'),
    groups: entities('groups'),
  })
  .meta({ description: 'an hris payload' });

const payloadSchema = z
  .discriminatedUnion('template', [applicationPayload, identityProviderPayload, hrisPayload], {
    error: 'must have a template: application, identity_provider or hris',
  })
  .meta({ description: 'the payload: its template, and for each entity kind where its entities come from' });

/** A manifest as written (defaults applied by `parse`). */
export const manifestSchema = z
  .strictObject({
    version: z.literal(MANIFEST_VERSIONS).meta({ description: 'the manifest format version: 1' }),
    id: z
      .string()
      .regex(/^[a-z][a-z0-9-]*$/, { error: 'must be lower-case letters, digits and dashes, e.g. redmine' })
      .meta({ description: 'the connector id: lower-case letters, digits and dashes' }),
    description: z.string().min(1).optional().meta({ description: 'one line for oaa plugins list' }),
    vars: z
      .record(nameOf('var'), varSchema)
      .optional()
      .meta({ description: 'the values the connector config gives in vars, e.g. url' }),
    secrets: z
      .record(nameOf('secret'), secretSchema)
      .optional()
      .meta({ description: 'the secrets the connector entry gives, e.g. token' }),
    provider: z
      .strictObject({
        lifecycle_management_type: z
          .enum(['SCIM', 'SEND_REST_PAYLOAD'])
          .optional()
          .meta({ description: 'for an application: how the service provisions into it' }),
      })
      .optional()
      .meta({ description: 'options of the provider the runner creates' }),
    check: z
      .strictObject({
        stream: nameOf('stream').meta({ description: 'the stream whose first page oaa run --check reads' }),
      })
      .optional()
      .meta({
        description:
          'what oaa run --check reads: the first page of this stream (default the first stream without for_each)',
      }),
    source: sourceSchema,
    streams: z
      .record(nameOf('stream'), streamSchema)
      .refine((s) => Object.keys(s).length > 0, { error: 'must declare at least one stream' })
      .meta({ description: 'the lists of records the API has, by name' }),
    indexes: z
      .record(nameOf('index'), indexSchema)
      .optional()
      .meta({ description: 'lookup tables, by name, for $index(name, key)' }),
    payload: payloadSchema,
  })
  .meta({
    title: 'oaakit REST connector manifest',
    description:
      'A REST API described in YAML, and how its records become an OAA payload (@oaakit/plugin-rest).',
  });

export type Manifest = z.infer<typeof manifestSchema>;
export type ManifestInput = z.input<typeof manifestSchema>;
export type StreamSpec = Manifest['streams'][string];
export type Pagination = StreamSpec['pagination'];
export type AuthSpec = Manifest['source']['auth'];
export type SourceSpec = Manifest['source'];
export type IndexSpec = NonNullable<Manifest['indexes']>[string];
export type VarSpec = NonNullable<Manifest['vars']>[string];
export type PayloadSpec = Manifest['payload'];
/** One source of entities, with the options some kinds have. */
export interface EntitySourceSpec {
  stream?: string | undefined;
  map: string;
  distinct: boolean;
  parent?: string | undefined;
  warn?: { values: string; message: string } | undefined;
}

/** The entity kinds of each template, as the manifest names them, and their payload fields. */
export const ENTITY_KINDS = {
  application: [
    'local_users',
    'local_groups',
    'local_roles',
    'local_access_creds',
    'resources',
    'permissions',
    'grants',
  ],
  identity_provider: ['domains', 'users', 'groups', 'apps'],
  hris: ['employees', 'groups'],
} as const;
