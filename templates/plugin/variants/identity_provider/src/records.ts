/**
 * The shape of the source system's export, checked when it is read: a surprise in the source
 * becomes one clear error naming the field, not a broken payload.
 */
import { OaaError, z } from '@oaakit/core';

const userSchema = z.object({
  id: z.string().min(1),
  login: z.string().min(1),
  email: z.email().optional(),
  fullName: z.string().optional(),
  department: z.string().optional(),
  title: z.string().optional(),
  active: z.boolean().default(true),
  /** The `id` of the user's manager. */
  manager: z.string().optional(),
  /** The `id`s of the user's groups. */
  groups: z.array(z.string()).default([]),
});

/** The export: the directory's domain, its groups and its users. */
export const sourceExportSchema = z.object({
  domain: z.string().min(1),
  groups: z.array(
    z.object({ id: z.string().min(1), name: z.string().min(1), security: z.boolean().default(false) }),
  ),
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
