// @oaakit/core: the OAA data model and the connector contract. No network I/O.

export {
  describeInvalidPayload,
  listViolations,
  OaaError,
  ValidationError,
  redact,
  type OaaErrorOptions,
  type Violation,
} from './errors.js';

/** zod, re-exported so plugins define config schemas with the same zod instance as the runner. */
export { z } from 'zod';

// Schemas and types
export { MAX_STRING_BYTES, fitsUtf8, isRfc3339, payloadString, timestamp } from './schemas/primitives.js';
export {
  MAX_DYNAMIC_PROPERTIES,
  MAX_PROPERTY_STRING,
  OPERATIONS,
  PROPERTY_NAME,
  PROPERTY_TYPES,
  TAG_KEY,
  TAG_VALUE,
  customPropertiesSchema,
  isPropertyName,
  operationSchema,
  ownerSchema,
  propertyTypeSchema,
  tagSchema,
  type Operation,
  type Owner,
  type PropertyType,
  type Tag,
} from './schemas/common.js';
export {
  IDENTITY_TYPES,
  LOCAL_USER_TYPES,
  PERMISSION_TYPES,
  applicationPayloadSchema,
  applicationSchema,
  connectionSchema,
  identityToPermissionsSchema,
  localAccessCredSchema,
  localGroupSchema,
  localRoleSchema,
  localUserSchema,
  permissionSchema,
  resourceSchema,
  type Application,
  type ApplicationPayload,
  type ApplicationPermission,
  type ApplicationPropertyDefinition,
  type Connection,
  type IdentityToPermissions,
  type IdentityType,
  type LocalAccessCred,
  type LocalGroup,
  type LocalRole,
  type LocalUser,
  type LocalUserType,
  type Permission,
  type PermissionType,
  type Resource,
  type RoleAssignment,
} from './schemas/application.js';
export {
  IDP_PROVIDER_TYPES,
  IDP_USER_IDENTITY_TYPES,
  appAssignmentSchema,
  identityProviderPayloadSchema,
  idpAppSchema,
  idpGroupSchema,
  idpUserSchema,
  sourceIdentitySchema,
  type AppAssignment,
  type IdentityProviderPayload,
  type IdpApp,
  type IdpGroup,
  type IdpUser,
  type IdpUserIdentityType,
  type SourceIdentity,
} from './schemas/identity-provider.js';
export {
  EMPLOYMENT_TYPES,
  hrisEmployeeSchema,
  hrisGroupSchema,
  hrisPayloadSchema,
  type HrisEmployee,
  type HrisGroup,
  type HrisPayload,
} from './schemas/hris.js';
export {
  TEMPLATES,
  isTemplate,
  payloadSchemas,
  templateSchema,
  type Payload,
  type PayloadByTemplate,
  type Template,
} from './schemas/templates.js';
export {
  MAX_MULTIPART_CHUNKS,
  compressionTypeSchema,
  csvPushRequestSchema,
  multipartRequestSchema,
  normalizeCompression,
  pushRequestSchema,
  pushResponseSchema,
  type CompressionType,
  type CsvPushRequest,
  type MultipartRequest,
  type PushRequest,
  type PushResponse,
} from './schemas/requests.js';
export {
  LIFECYCLE_MANAGEMENT_TYPES,
  MAX_ICON_BYTES,
  PROVIDER_NAME,
  dataSourceCreateSchema,
  dataSourceSchema,
  iconSchema,
  iconSetSchema,
  pageSchema,
  providerCreateSchema,
  providerSchema,
  providerUpdateSchema,
  type DataSource,
  type DataSourceCreate,
  type Icon,
  type Provider,
  type ProviderCreate,
  type ProviderUpdate,
} from './schemas/providers.js';
export {
  nodeQueryRequestSchema,
  nodeQueryResultSchema,
  nodeSchema,
  tagRemoveRequestSchema,
  tagRequestSchema,
  type GraphNode,
  type NodeQueryRequest,
  type NodeQueryResult,
  type TagRemoveRequest,
  type TagRequest,
} from './schemas/graph.js';
export {
  EVENT_CATEGORIES,
  EVENT_ENTITIES,
  EVENT_SEVERITIES,
  eventExportSchema,
  eventSchema,
  type ServiceEvent,
} from './schemas/events.js';
export {
  accessRequestSettingsSchema,
  emailTemplateRequestSchema,
  emailTemplateSchema,
  type AccessRequestSettings,
  type EmailTemplate,
} from './schemas/notifications.js';
export {
  BAD_REQUEST_TYPE,
  USER_FACING_TYPE,
  errorBodySchema,
  fieldViolationSchema,
  type ErrorBody,
} from './schemas/error-body.js';
export { jsonSchemas } from './json-schema/schemas.js';

// Validation
export { validate, type ValidationResult } from './validate/index.js';
export { validateAsRead, type ValidationAsRead } from './validate/streaming.js';
export type { SemanticOptions as ValidateOptions } from './validate/options.js';
export { formatPath } from './validate/context.js';

// Digest, diff and incremental payloads
export { digest } from './diff/digest.js';
export {
  diffPayloads,
  type DiffItem,
  type KindCounts,
  type KindDiff,
  type PayloadDiff,
} from './diff/diff-payloads.js';
export { buildIncrementalPayload } from './diff/build-incremental.js';
export { applyIncremental } from './diff/apply-incremental.js';
export { ENTITY_KINDS, type EntityKind } from './diff/entity-kinds.js';
export { canonicalJson } from './diff/canonical.js';
export type { JsonObject } from './diff/json.js';

// Builders
export { ApplicationBuilder, type ApplicationPropertyKind } from './builders/application.js';
export {
  ApplicationPayloadBuilder,
  type GrantBase,
  type PermissionGrant,
  type RoleGrant,
} from './builders/application-payload.js';
export { ResourceBuilder, type ResourceInput } from './builders/resource.js';
export { IdentityProviderPayloadBuilder, type IdpPropertyKind } from './builders/identity-provider.js';
export { HrisPayloadBuilder } from './builders/hris.js';

// Streaming serialization
export { DEFAULT_JSON_CHUNK_SIZE, jsonChunks, type JsonChunksOptions } from './serialize/json-chunks.js';
export { type Streamable } from './serialize/json-values.js';
export {
  createPayloadStream,
  type PayloadByteCounts,
  type PayloadCompression,
  type PayloadStream,
  type PayloadStreamOptions,
} from './serialize/payload-stream.js';
export { type PayloadEncoding } from './serialize/output-encoder.js';
export { measurePayload, payloadToBuffer, type PayloadBuffer } from './serialize/payload-buffer.js';

// The connector contract
export {
  CONNECTOR_API_VERSION,
  defineConnector,
  type Connector,
  type ConnectorContext,
  type ConnectorDefinition,
  type ConnectorLogger,
  type ConnectorState,
  type ExtractResult,
  type ProgressReporter,
  type SecretDeclaration,
  type SourceHttp,
  type SourceRequestInit,
} from './connector.js';
