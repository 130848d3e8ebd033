// @oaakit/core: the OAA data model and the connector contract. No network I/O.

export {
  describeInvalidPayload,
  isOaaError,
  OaaError,
  ValidationError,
  redact,
  type OaaErrorOptions,
  type Violation,
} from './errors.js';
export type { CoreErrorCode, OaaErrorCode, OaaErrorCodes } from './error-codes.js';
export { ACCEPT_BODY_LIMIT_BYTES, SEND_BODY_LIMIT_BYTES } from './service-limits.js';

/** zod, re-exported so plugins define config schemas with the same zod instance as the runner. */
export { z } from 'zod';

// Schemas and types
export { MAX_STRING_BYTES, isRfc3339 } from './schemas/primitives.js';
export {
  MAX_PROPERTY_STRING,
  OPERATIONS,
  PROPERTY_NAME,
  PROPERTY_TYPES,
  TAG_KEY,
  TAG_VALUE,
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
  type AppAssignment,
  type IdentityProviderPayload,
  type IdpApp,
  type IdpGroup,
  type IdpUser,
  type IdpUserIdentityType,
  type SourceIdentity,
} from './schemas/identity-provider.js';
export { EMPLOYMENT_TYPES, type HrisEmployee, type HrisGroup, type HrisPayload } from './schemas/hris.js';
export {
  TEMPLATES,
  isTemplate,
  type Payload,
  type PayloadByTemplate,
  type Template,
} from './schemas/templates.js';
export {
  csvPushRequestSchema,
  multipartRequestSchema,
  normalizeCompression,
  pushRequestSchema,
  type CompressionType,
  type CsvPushRequest,
  type MultipartRequest,
  type PushRequest,
  type PushResponse,
} from './schemas/requests.js';
export {
  LIFECYCLE_MANAGEMENT_TYPES,
  MAX_ICON_BYTES,
  dataSourceCreateSchema,
  iconSetSchema,
  providerCreateSchema,
  providerUpdateSchema,
  type DataSource,
  type DataSourceCreate,
  type Icon,
  type Provider,
  type ProviderCreate,
  type ProviderUpdate,
} from './schemas/providers.js';
export {
  type AccessExplanation,
  type AccessGrant,
  type AccessPathStep,
  type AccessRelation,
} from './schemas/access-explanation.js';
export {
  CONDITION_FNS,
  NODE_QUERY_LIMITS,
  nodeQueryRequestSchema,
  nodeQueryResultSchema,
  nodeSchema,
  tagRemoveRequestSchema,
  tagRequestSchema,
  type CanonicalPermissionsFilter,
  type ConditionFn,
  type ConditionSpec,
  type GraphNode,
  type NodeQueryRequest,
  type NodeQueryType,
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
  emailTemplateInputSchema,
  emailTemplateRequestSchema,
  emailTemplateSchema,
  emailTemplateTestRequestSchema,
  emailTemplateTestResultSchema,
  MAX_TEMPLATE_BODY_BYTES,
  NOTIFICATION_USAGES,
  type AccessRequestSettings,
  type EmailTemplate,
  type EmailTemplateInput,
  type EmailTemplateTestRequest,
  type EmailTemplateTestResult,
  type NotificationUsage,
} from './schemas/notifications.js';
export { BAD_REQUEST_TYPE, USER_FACING_TYPE, errorBodySchema, type ErrorBody } from './schemas/error-body.js';
export {
  MAX_CLIENT_SECRETS,
  MAX_OAUTH_URL_LENGTH,
  MAX_REDIRECT_URIS,
  OAUTH_SCOPES,
  autoConsentSchema,
  consoleUserSchema,
  isOAuthScope,
  oauthAppCreateSchema,
  oauthAppSchema,
  oauthSecretSchema,
  oauthTokenResponseSchema,
  userCreateSchema,
  userInfoSchema,
  type AutoConsent,
  type ConsoleUser,
  type OAuthApp,
  type OAuthAppCreate,
  type OAuthScope,
  type OAuthSecret,
  type OAuthTokenResponse,
  type UserCreate,
  type UserInfo,
} from './schemas/oauth.js';
export { pkceChallenge } from './oauth/pkce.js';

// Validation
export { validate, type ValidationResult } from './validate/index.js';
export { validateAsRead, type ValidationAsRead } from './validate/streaming.js';
export type { SemanticOptions as ValidateOptions } from './validate/options.js';

// Digest, diff and incremental payloads
export { digest } from './diff/digest.js';
export { entityKey, entityLabel, hashAsRead, type EntityHash, type HashAsRead } from './diff/hash-as-read.js';
export { fmix, HEX_PAIRS } from './diff/hash128.js';
export { applyIncremental } from './diff/apply-incremental.js';
export { ENTITY_KIND_INDEX, ENTITY_KINDS, type EntityKind } from './diff/entity-kinds.js';
export {
  hasHeaderFields,
  identityKind,
  templateKinds,
  type EntityCounts,
  type KindCounts,
} from './diff/entity-counts.js';
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
export { orderGroups, withoutEdges, type GroupOrder } from './builders/group-nesting.js';

// Streaming serialization
export { jsonChunks, type JsonChunksOptions } from './serialize/json-chunks.js';
export {
  containerKind,
  streamedKind,
  type ContainerKind,
  type Streamable,
  type StreamedKind,
} from './serialize/json-values.js';
export {
  createPayloadStream,
  type PayloadByteCounts,
  type PayloadCompression,
  type PayloadStream,
  type PayloadStreamOptions,
} from './serialize/payload-stream.js';
export { type PayloadEncoding } from './serialize/output-encoder.js';

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
