/**
 * The node types a resource's `connections` may link to. The service links a connection to an
 * entity another integration discovered, of five kinds: a data-warehouse user, a cloud service
 * account, a cloud IAM role, an identity provider's enterprise application and a query-engine user.
 * A connection to any other node type links to nothing there, so the emulator keeps it and warns.
 */

/** The known connection node types, as the service spells them. */
export const CONNECTION_NODE_TYPES: readonly string[] = [
  'SnowflakeUser',
  'GoogleCloudServiceAccount',
  'AwsIamRole',
  'AzureADEnterpriseApplication',
  'TrinoUser',
];

const BY_FOLDED = new Map(CONNECTION_NODE_TYPES.map((t) => [t.toLowerCase(), t]));

/**
 * The warning for a connection of `resource` (in `application`) to `nodeType`, or undefined when
 * the node type is a known one.
 */
export function connectionTypeWarning(
  nodeType: string,
  resource: string,
  application: string,
): string | undefined {
  if (CONNECTION_NODE_TYPES.includes(nodeType)) return undefined;
  const near = BY_FOLDED.get(nodeType.toLowerCase());
  return (
    `resource ${JSON.stringify(resource)} of application ${JSON.stringify(application)} connects to node type ${JSON.stringify(nodeType)}, which is not a known node type` +
    (near === undefined ? '' : ` (did you mean ${near}? node types are case-sensitive)`) +
    `: use one of ${CONNECTION_NODE_TYPES.join(', ')}; the connection links to nothing`
  );
}
