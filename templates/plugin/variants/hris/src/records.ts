/**
 * The shape of the source system's export, checked when it is read: a surprise in the source
 * becomes one clear error naming the field, not a broken payload.
 */
import { OaaError, z } from '@oaakit/core';

const employeeSchema = z.object({
  id: z.string().min(1),
  number: z.string().min(1),
  firstName: z.string().min(1),
  lastName: z.string().min(1),
  email: z.email().optional(),
  title: z.string().optional(),
  status: z.enum(['ACTIVE', 'ON_LEAVE', 'TERMINATED']),
  /** The `id` of the employee's department. */
  department: z.string().optional(),
  /** The `id` of the employee's manager. */
  manager: z.string().optional(),
  startDate: z.iso.date().optional(),
  type: z.string().optional(),
});

/** The export: departments and employees. */
export const sourceExportSchema = z.object({
  departments: z.array(z.object({ id: z.string().min(1), name: z.string().min(1) })),
  employees: z.array(employeeSchema),
});

/** The parsed export. */
export type SourceExport = z.infer<typeof sourceExportSchema>;
/** One employee of the export. */
export type SourceEmployee = z.infer<typeof employeeSchema>;

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
