/** Options of `validate`. */
export interface SemanticOptions {
  /**
   * Whether a federated identity (a login email or group name) matches an identity-provider entity.
   * When given, unmatched identities produce the service's `Cannot find identity by names ...`
   * warning; without it they cannot be judged locally and are not reported.
   */
  knownIdentity?: (identity: string) => boolean;
}
