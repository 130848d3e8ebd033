/**
 * The employee fields a CSV column can fill, and the column each one reads by default (the header of
 * a common HR export). Everything else in a file becomes a custom property.
 */

/** Fields a column can be mapped to (keys of the `columns` config). */
export const FIELDS = [
  'employee_number',
  'id',
  'username',
  'first_name',
  'last_name',
  'preferred_name',
  'name',
  'email',
  'personal_email',
  'idp_id',
  'company',
  'employment_status',
  'is_active',
  'job_title',
  'department',
  'cost_center',
  'managers',
  'start_date',
  'termination_date',
  'employment_types',
  'work_location',
  'home_location',
  'primary_time_zone',
] as const;

/** A field a column can be mapped to. */
export type Field = (typeof FIELDS)[number];

/**
 * The column header each field reads when the config does not say otherwise. `id` has no column of
 * its own by default: it is the employee number.
 */
export const DEFAULT_COLUMNS: Readonly<Record<Field, string | null>> = {
  employee_number: 'employee_number',
  id: null,
  username: 'account',
  first_name: 'first_name',
  last_name: 'last_name',
  preferred_name: 'preferred_name',
  name: 'display_name',
  email: 'work_email',
  personal_email: 'personal_email',
  idp_id: 'idp_id',
  company: 'company',
  employment_status: 'employment_status',
  is_active: 'active',
  job_title: 'title',
  department: 'department',
  cost_center: 'cost_center',
  managers: 'manager',
  start_date: 'start_date',
  termination_date: 'date_terminated',
  employment_types: 'employment_type',
  work_location: 'work_location',
  home_location: 'home_location',
  primary_time_zone: 'time_zone',
};

/** Fields whose column must be in every file. */
export const REQUIRED_FIELDS: readonly Field[] = ['employee_number', 'first_name', 'last_name'];

/**
 * How headers are compared: case, spaces, dashes and dots do not matter, so `Employee Number`,
 * `employee-number` and `EMPLOYEE_NUMBER` are the same column.
 */
export function headerKey(header: string): string {
  return header
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '_')
    .replace(/^_+|_+$/g, '');
}

/**
 * The custom property name of a column: lower-case letters and underscores, starting with a letter
 * (`^[a-z][a-z_]*$`, the service's rule). Accents are dropped, digits and other characters become
 * underscores. Returns `''` when nothing usable is left (e.g. a header `2024`).
 */
export function propertyName(header: string): string {
  return header
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/[^a-z]+/g, '_')
    .replace(/^_+|_+$/g, '');
}
