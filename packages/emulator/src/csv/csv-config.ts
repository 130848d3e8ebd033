/**
 * The CSV column mapping of a provider, kept under the key `csv` of its `configuration_json` (the
 * spec leaves the shape open; this one is the emulator's, documented in the README):
 *
 * ```json
 * { "csv": { "template": "application", "columns": { "User": "name", "Active": "is_active" },
 *            "list_separator": ";", "true_values": ["yes"], "false_values": ["no"] } }
 * ```
 */
import {
  PERMISSION_TYPES,
  PROPERTY_NAME,
  PROPERTY_TYPES,
  type PropertyType,
  type Template,
} from '@oaakit/core';

/** Fields a column can map to, per template (`custom_properties.<name>` besides). */
export const CSV_FIELDS = {
  application: [
    'name',
    'unique_id',
    'identities',
    'groups',
    'roles',
    'permissions',
    'is_active',
    'created_at',
    'last_login_at',
    'password_last_changed_at',
    'deactivated_at',
  ],
  hris: [
    'id',
    'name',
    'employee_number',
    'first_name',
    'last_name',
    'email',
    'idp_id',
    'is_active',
    'employment_status',
    'job_title',
    'start_date',
    'termination_date',
    'company',
    'preferred_name',
    'display_full_name',
    'canonical_name',
    'username',
    'personal_email',
    'home_location',
    'work_location',
    'primary_time_zone',
    'department',
    'cost_center',
    'managers',
    'groups',
    'employment_types',
  ],
} as const;

export type CsvTemplate = keyof typeof CSV_FIELDS;

export const DEFAULT_TRUE_VALUES = ['true', 'yes', 'y', '1', 't'];
export const DEFAULT_FALSE_VALUES = ['false', 'no', 'n', '0', 'f'];

/** A validated CSV mapping. */
export interface CsvConfig {
  template: CsvTemplate;
  delimiter: string;
  listSeparator: string;
  trueValues: string[];
  falseValues: string[];
  /** CSV header -> field (`name`, `groups`, `custom_properties.department`, ...). */
  columns: Map<string, string>;
  propertyTypes: Map<string, PropertyType>;
  /** `name`, `application_type`, `description` of the one application (template application). */
  application: Record<string, string>;
  /** Permission name (folded) -> canonical permission types. */
  permissions: Map<string, string[]>;
  /** Role name (folded) -> permission names. */
  roles: Map<string, string[]>;
  /** `name`, `hris_type` (template hris). */
  hris: Record<string, string>;
  /** `id`, `name`, `url` of the HRIS system. */
  hrisSystem: Record<string, string>;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

function stringsOf(v: unknown, what: string): Record<string, string> {
  if (v === undefined) return {};
  if (!isObj(v) || !Object.values(v).every((x) => typeof x === 'string'))
    throw new Error(`${what} must be an object of strings`);
  return v as Record<string, string>;
}

function listMap(
  v: unknown,
  what: string,
  check?: (item: string) => string | undefined,
): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (v === undefined) return out;
  if (!isObj(v)) throw new Error(`${what} must be an object of string lists`);
  for (const [k, list] of Object.entries(v)) {
    if (!isStringList(list)) throw new Error(`${what}.${k} must be a list of strings`);
    for (const item of list) {
      const problem = check?.(item);
      if (problem) throw new Error(`${what}.${k}: ${problem}`);
    }
    out.set(k.toLowerCase(), list);
  }
  return out;
}

function hrisHeader(v: unknown): { hris: Record<string, string>; hrisSystem: Record<string, string> } {
  if (v === undefined) return { hris: {}, hrisSystem: {} };
  if (!isObj(v)) throw new Error('csv.hris must be an object');
  const { system, ...rest } = v;
  return { hris: stringsOf(rest, 'csv.hris'), hrisSystem: stringsOf(system, 'csv.hris.system') };
}

function parseConfig(csv: unknown, providerTemplate: Template): CsvConfig {
  if (!isObj(csv)) throw new Error('csv must be an object');
  const template = csv.template ?? providerTemplate;
  if (template !== 'application' && template !== 'hris')
    throw new Error('csv.template must be application or hris');
  if (template !== providerTemplate)
    throw new Error(`csv.template ${template} does not match the provider's template ${providerTemplate}`);
  const one = (key: string, fallback: string): string => {
    const v = csv[key] ?? fallback;
    if (typeof v !== 'string' || v.length !== 1 || v === '"' || v === '\r' || v === '\n')
      throw new Error(`csv.${key} must be one character (not a quote or line break)`);
    return v;
  };
  const words = (key: string, fallback: string[]): string[] => {
    const v = csv[key] ?? fallback;
    if (!isStringList(v) || v.length === 0) throw new Error(`csv.${key} must be a non-empty list of strings`);
    return v.map((w) => w.toLowerCase());
  };
  const columns = new Map<string, string>();
  const fields: readonly string[] = CSV_FIELDS[template];
  for (const [header, field] of Object.entries(stringsOf(csv.columns, 'csv.columns'))) {
    const prop = field.startsWith('custom_properties.')
      ? field.slice('custom_properties.'.length)
      : undefined;
    if (prop !== undefined ? !PROPERTY_NAME.test(prop) : !fields.includes(field)) {
      throw new Error(
        `csv.columns maps ${JSON.stringify(header)} to unknown field ${JSON.stringify(field)}; fields: ${fields.join(', ')}, custom_properties.<name>`,
      );
    }
    columns.set(header, field);
  }
  const key = template === 'application' ? 'name' : 'id';
  if (![...columns.values()].includes(key)) throw new Error(`csv.columns must map a column to ${key}`);
  const propertyTypes = new Map<string, PropertyType>();
  for (const [name, type] of Object.entries(stringsOf(csv.property_types, 'csv.property_types'))) {
    if (!(PROPERTY_TYPES as readonly string[]).includes(type))
      throw new Error(`csv.property_types.${name} must be one of ${PROPERTY_TYPES.join(', ')}`);
    propertyTypes.set(name, type as PropertyType);
  }
  const separator = one('list_separator', ';');
  const delimiter = one('delimiter', ',');
  if (separator === delimiter) throw new Error('csv.list_separator must differ from csv.delimiter');
  return {
    template,
    delimiter,
    listSeparator: separator,
    trueValues: words('true_values', DEFAULT_TRUE_VALUES),
    falseValues: words('false_values', DEFAULT_FALSE_VALUES),
    columns,
    propertyTypes,
    application: stringsOf(csv.application, 'csv.application'),
    permissions: listMap(csv.permissions, 'csv.permissions', (t) =>
      (PERMISSION_TYPES as readonly string[]).includes(t) ? undefined : `unknown permission type ${t}`,
    ),
    roles: listMap(csv.roles, 'csv.roles'),
    ...hrisHeader(csv.hris),
  };
}

/**
 * Reads the CSV mapping from a provider's `configuration_json`. A configuration without a `csv` key
 * is not a CSV mapping (no config, no problem); a malformed one gives a `problem`.
 */
export function parseCsvConfigJson(
  json: string | null | undefined,
  providerTemplate: Template,
): { config?: CsvConfig; problem?: string } {
  if (json == null || json.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return {};
  }
  if (!isObj(parsed) || parsed.csv === undefined) return {};
  try {
    return { config: parseConfig(parsed.csv, providerTemplate) };
  } catch (err) {
    return { problem: `invalid CSV mapping: ${(err as Error).message}` };
  }
}
