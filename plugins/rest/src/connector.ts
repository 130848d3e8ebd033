/**
 * The REST connector. Its config names a manifest (`manifest: scim`, or a file) and gives the
 * manifest's vars; `forConfig` reads the manifest and makes the connector of that config: the
 * manifest's id, template, secrets and vars (as the config schema, so the runner names a missing
 * or wrong var by its key path), and a check and an extract that run the manifest.
 */
import { readFileSync } from 'node:fs';
import {
  CONNECTOR_API_VERSION,
  defineConnector,
  z,
  type Connector,
  type ConnectorContext,
  type SecretDeclaration,
} from '@oaakit/core';
import { ManifestRun, type RunContext } from './engine/run.js';
import type { CompiledManifest } from './manifest/compile.js';
import { loadManifest, shippedManifests } from './manifest/load.js';
import type { VarSpec } from './manifest/schema.js';

/** The package's version: every manifest connector has it. */
export const VERSION = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

const manifestField = z
  .string()
  .min(1)
  .meta({
    description: `a shipped manifest (${shippedManifests().join(', ')}) or the path of a manifest file, relative to the config file`,
  });

/** The config of the REST connector before its manifest is read. */
export const restConfigSchema = z.strictObject({
  manifest: manifestField,
  vars: z
    .record(z.string(), z.unknown())
    .default({})
    .meta({ description: "values of the manifest's vars, e.g. { url: https://redmine.example.com }" }),
});

/** The config as written. */
export type RestConfigInput = z.input<typeof restConfigSchema>;

function varSchema(spec: VarSpec): z.ZodType {
  const base: z.ZodType = (() => {
    switch (spec.type) {
      case 'number':
        return z.number();
      case 'integer':
        return z.int();
      case 'boolean':
        return z.boolean();
      case 'list':
        return z.array(z.unknown());
      case 'object':
        return z.record(z.string(), z.unknown());
      case 'string':
        return z.string();
    }
  })().meta({ description: spec.description });
  return spec.default === undefined ? base : base.default(spec.default);
}

/** The config schema of a manifest's connector: `manifest`, and `vars` as the manifest declares them. */
export function manifestConfigSchema(compiled: CompiledManifest) {
  const declared = compiled.manifest.vars ?? {};
  const vars = z
    .strictObject(Object.fromEntries(Object.entries(declared).map(([name, spec]) => [name, varSchema(spec)])))
    .meta({ description: `values of the vars of manifest ${compiled.manifest.id}` });
  const required = Object.values(declared).some((v) => v.default === undefined);
  return z.strictObject({ manifest: manifestField, vars: required ? vars : vars.prefault({}) });
}

/** What a run of the manifest gets of the connector context. */
export function runContext(ctx: ConnectorContext<{ vars: Record<string, unknown> }, string>): RunContext {
  return {
    http: ctx.http,
    secrets: ctx.secrets,
    vars: ctx.config.vars,
    signal: ctx.signal,
    logger: ctx.logger,
    progress: ctx.progress,
  };
}

/** The connector of a compiled manifest. */
export function manifestConnector(compiled: CompiledManifest): Connector {
  const m = compiled.manifest;
  const secrets: SecretDeclaration<string>[] = Object.entries(m.secrets ?? {}).map(([name, s]) => ({
    name,
    description: s.description,
  }));
  const lifecycle = m.provider?.lifecycle_management_type;
  return defineConnector({
    id: m.id,
    version: VERSION,
    apiVersion: CONNECTOR_API_VERSION,
    template: m.payload.template,
    description: m.description ?? `${m.id} (a REST manifest)`,
    configSchema: manifestConfigSchema(compiled),
    secrets,
    ...(lifecycle === undefined ? {} : { provider: { lifecycleManagementType: lifecycle } }),
    async check(ctx) {
      await new ManifestRun(compiled, runContext(ctx)).check();
    },
    async extract(ctx) {
      return (await new ManifestRun(compiled, runContext(ctx)).payload()) as never;
    },
  });
}

/**
 * The REST connector: `config: { manifest: scim, vars: { url: ... } }`. The runner runs the
 * connector `forConfig` makes of the manifest (see `manifestConnector`); this one's own template
 * stands for none, the manifest's is used.
 *
 * @example
 * // oaa.config.yaml
 * // - id: tracker
 * //   plugin: '@oaakit/plugin-rest'
 * //   config: { manifest: redmine, vars: { url: https://redmine.example.com } }
 * //   secrets: { apiKey: env:REDMINE_API_KEY }
 */
export const restConnector = defineConnector({
  id: 'rest',
  version: VERSION,
  apiVersion: CONNECTOR_API_VERSION,
  template: 'application',
  description: 'Any REST API described in a YAML manifest (the manifest gives the template and the secrets)',
  configSchema: restConfigSchema,
  async forConfig(config, options) {
    return manifestConnector(await loadManifest(config.manifest, options.baseDir));
  },
  async extract(ctx) {
    // The runner never calls this (it runs what forConfig makes); a direct call gets the same.
    const made = manifestConnector(await loadManifest(ctx.config.manifest, ctx.baseDir));
    const config: unknown = made.configSchema.parse(ctx.config);
    return (await made.extract({ ...ctx, config })) as never;
  },
});
