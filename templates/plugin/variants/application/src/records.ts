/**
 * The shape of the source system's export, checked when it is read: a surprise in the source
 * becomes one clear error naming the field, not a broken payload.
 */
import { OaaError, z } from '@oaakit/core';

/** What a permission of the source allows. */
export const ACCESS_LEVELS = ['read', 'write', 'admin'] as const;

const userSchema = z.object({
  login: z.string().min(1),
  email: z.email().optional(),
  active: z.boolean().default(true),
  department: z.string().optional(),
  lastLogin: z.iso.datetime({ offset: true }).optional(),
  groups: z.array(z.string()).default([]),
  roles: z.array(z.string()).default([]),
});

/** The export: permissions, roles that bundle them, groups and users. */
export const sourceExportSchema = z.object({
  permissions: z.array(z.object({ name: z.string().min(1), access: z.enum(ACCESS_LEVELS) })),
  roles: z.array(z.object({ name: z.string().min(1), permissions: z.array(z.string()) })),
  groups: z.array(z.object({ name: z.string().min(1) })),
  users: z.array(userSchema),
});

/** The parsed export. */
export type SourceExport = z.infer<typeof sourceExportSchema>;
/** One user of the export. */
export type SourceUser = z.infer<typeof userSchema>;

/** Checks the export's shape; throws `SOURCE_INVALID` listing every problem. */
export function parseExport(value: unknown, source: string): SourceExport {
  const parsed = sourceExportSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new OaaError<'SOURCE_INVALID'>(
    `${source} is not an export of __DISPLAY_NAME__:\n${z.prettifyError(parsed.error)}`,
    {
      code: 'SOURCE_INVALID',
    },
  );
}
