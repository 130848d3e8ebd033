/** `oaa access` for humans: each destination with its permissions, and the path behind each grant. */
import type { AccessExplanation, AccessGrant, AccessPathStep } from '@oaakit/core';

const RELATION_TEXT: Record<AccessPathStep['relation'], string> = {
  MEMBER_OF: 'member of',
  HAS_ACCESS_CRED: 'holds credential',
  LINKED_ACCOUNT: 'is account',
  HRIS_IDENTITY: 'is identity',
  HAS_ROLE: 'holds role',
};

const nodeText = (n: { type: string; name: string | null; id: string }): string =>
  `${n.name ?? n.id} (${n.type})`;

function why(g: AccessGrant): string {
  const parts = g.path.map((s) => `${RELATION_TEXT[s.relation]} ${nodeText(s)}`);
  if (g.role) parts.push(`role ${g.role}${g.nested_role ? ` (through nested role ${g.nested_role})` : ''}`);
  parts.push(
    `permission ${g.permission.name ?? g.permission.id} [${g.canonical.join(', ') || 'no canonical type'}]`,
  );
  if (g.inherited) parts.push('inherited from a parent resource');
  return parts.join(' -> ');
}

/** The explanation of one identity as indented text. */
export function renderAccess(view: AccessExplanation): string {
  const lines = [`${nodeText(view)} [${view.id}]`];
  if (view.destinations.length === 0) lines.push('  reaches nothing with a permission');
  for (const d of view.destinations) {
    lines.push(`  ${nodeText(d)}: ${d.permissions.join(', ') || 'no canonical permission'}`);
    for (const g of d.grants) lines.push(`    - ${why(g)}`);
  }
  if (view.memberships.length > 0) {
    lines.push('  acts as / holds:');
    for (const m of view.memberships)
      lines.push(`    - ${m.path.map((s) => `${RELATION_TEXT[s.relation]} ${nodeText(s)}`).join(' -> ')}`);
  }
  if (view.truncated) lines.push('  (more destinations exist than were listed)');
  return lines.join('\n');
}
