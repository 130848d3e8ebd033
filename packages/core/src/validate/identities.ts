/**
 * The service's `Cannot find identity by names ...` warning: a federated identity (a local user's or
 * group's `identities`, an `idp` grantee) that matches no identity-provider entity. It comes once per
 * identity, at its first mention, however many entities name it.
 */
import type { CheckContext, PathSegment } from './context.js';
import type { SemanticOptions } from './options.js';

export class UnmatchedIdentities {
  /** Identities already reported, lower-cased (names compare without case); made on the first. */
  private reported: Set<string> | undefined;

  constructor(private readonly options: SemanticOptions) {}

  /** Whether identities can be judged at all (`knownIdentity` was given). */
  get active(): boolean {
    return this.options.knownIdentity !== undefined;
  }

  /** Warns at the context's path plus `field` if `identity` is unknown and not yet reported. */
  check(identity: string, ctx: CheckContext, ...field: PathSegment[]): void {
    const known = this.options.knownIdentity;
    if (!known || known(identity)) return;
    const folded = identity.toLowerCase();
    if (this.reported?.has(folded) === true) return;
    (this.reported ??= new Set()).add(folded);
    ctx.warn(
      `Cannot find identity by names ${JSON.stringify(identity)}: no identity-provider user or group has this name, email or identity`,
      ...field,
    );
  }

  /** `check` for each of an entity's `identities`. */
  checkAll(identities: readonly string[] | null | undefined, ctx: CheckContext): void {
    if (!identities || !this.options.knownIdentity) return;
    for (let j = 0; j < identities.length; j++) this.check(identities[j]!, ctx, 'identities', j);
  }
}
