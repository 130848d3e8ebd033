// @oaakit/plugin-rest: declarative connectors. A REST API described in a YAML manifest becomes a
// connector; the package's default export is the REST connector, whose config names the manifest.
export {
  restConnector as default,
  restConnector,
  manifestConnector,
  manifestConfigSchema,
  restConfigSchema,
  VERSION,
} from './connector.js';
export type { RestConfigInput } from './connector.js';
export { REST_ERROR_CODES, type RestErrorCode } from './errors.js';
export {
  checkManifest,
  compileManifestText,
  loadManifest,
  manifestInvalid,
  manifestPath,
  shippedManifests,
  SHIPPED_MANIFESTS_DIR,
  type ManifestCheck,
} from './manifest/load.js';
export type { CompiledManifest } from './manifest/compile.js';
export { MANIFEST_VERSIONS, manifestSchema, type Manifest, type ManifestInput } from './manifest/schema.js';
export { manifestJsonSchema, manifestJsonSchemaText } from './manifest/json-schema.js';
export { formatProblem, type ManifestProblem, type Position } from './manifest/source-map.js';
export {
  formatTryResult,
  tryStream,
  type TriedMapping,
  type TriedRecord,
  type TryOptions,
  type TryResult,
} from './try.js';
