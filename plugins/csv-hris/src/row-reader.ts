/** Turns one CSV record into an employee, reporting each bad cell as `file:line:column`. */
import { MAX_PROPERTY_STRING, MAX_STRING_BYTES, type HrisEmployee } from '@oaakit/core';
import type { Field } from './fields.js';
import type { HeaderMap } from './header-map.js';
import { Interner } from './interner.js';
import type { Problems } from './problems.js';
import { readDate, readEmploymentTypes, type BooleanReader, type DateOrder, type Read } from './values.js';

/** An employee read from a row, with what still needs the whole input to resolve. */
export interface EmployeeRow {
  employee: HrisEmployee;
  /** Department and cost center names (group names), if any. */
  department?: string;
  costCenter?: string;
  /** Manager references as written: employee numbers or emails. */
  managers: string[];
}

/** What a `RowReader` needs besides the file's header. */
export interface RowReaderOptions {
  file: string;
  header: HeaderMap;
  booleans: BooleanReader;
  dateOrder: DateOrder;
  problems: Problems;
}

/** Fields whose values are (nearly) unique per employee: not worth sharing. */
const UNIQUE_FIELDS: readonly Field[] = [
  'employee_number',
  'id',
  'username',
  'name',
  'email',
  'personal_email',
  'idp_id',
  'managers',
];

export class RowReader {
  private readonly index: Record<Field, number>;
  private readonly headers: string[];
  /** Per column: shares repeated values (see `Interner`); undefined for unique columns. */
  private readonly shared: (Interner | undefined)[];
  private readonly dates = new Interner<Read<string>>();
  private readonly employmentTypes = new Interner<string[]>();
  private line = 0;
  private fields: string[] = [];

  constructor(private readonly options: RowReaderOptions) {
    this.index = options.header.index;
    this.headers = options.header.headers;
    const unique = new Set(UNIQUE_FIELDS.map((f) => this.index[f]));
    this.shared = this.headers.map((_, i) => (unique.has(i) ? undefined : new Interner()));
  }

  /** The employee of the record on `line`, or undefined when it has no employee number. */
  read(line: number, fields: string[]): EmployeeRow | undefined {
    this.line = line;
    this.fields = fields;
    const width = this.headers.length;
    if (fields.length !== width) {
      const column = fields.length < width ? this.headers[fields.length]! : `#${width + 1}`;
      this.problem(column, `the row has ${fields.length} fields, the header has ${width}`);
    }

    const employeeNumber = this.text('employee_number');
    if (employeeNumber === '') {
      this.problem(this.columnOf('employee_number'), 'the employee number is empty');
      return undefined;
    }
    const id = this.index.id === -1 ? employeeNumber : this.required('id');
    const firstName = this.text('first_name');
    const lastName = this.text('last_name');
    const displayName = this.text('name');
    const name = displayName || `${firstName} ${lastName}`.trim();
    if (name === '')
      this.problem(
        this.columnOf('first_name'),
        'the employee has no name: display name, first name and last name are all empty',
      );

    const status = this.text('employment_status');
    let isActive: boolean;
    if (this.index.is_active !== -1) {
      const read = this.options.booleans.read(this.text('is_active'));
      if (!read.ok) this.problem(this.columnOf('is_active'), read.problem);
      isActive = read.ok && read.value;
    } else {
      // No active column: an employment status that reads as true (e.g. "Active") means active.
      const read = this.options.booleans.read(status);
      isActive = read.ok && read.value;
    }

    const types = this.text('employment_types');
    // One literal with every key, absent ones undefined (JSON leaves them out): all employees then
    // share one compact object shape instead of each growing its own.
    const employee: HrisEmployee = {
      id,
      name,
      employee_number: employeeNumber,
      company: this.optional('company'),
      first_name: firstName,
      last_name: lastName,
      preferred_name: this.optional('preferred_name'),
      display_full_name: displayName || undefined,
      username: this.optional('username'),
      email: this.optional('email'),
      idp_id: this.optional('idp_id'),
      personal_email: this.optional('personal_email'),
      home_location: this.optional('home_location'),
      work_location: this.optional('work_location'),
      cost_center: undefined,
      department: undefined,
      managers: undefined,
      employment_status: status || (isActive ? 'ACTIVE' : 'INACTIVE'),
      is_active: isActive,
      start_date: this.date('start_date'),
      termination_date: this.date('termination_date'),
      job_title: this.optional('job_title'),
      employment_types:
        types === ''
          ? undefined
          : (this.employmentTypes.get(types) ?? this.employmentTypes.set(types, readEmploymentTypes(types))),
      primary_time_zone: this.optional('primary_time_zone'),
      custom_properties: this.customProperties(),
    };

    const row: EmployeeRow = { employee, managers: [] };
    const department = this.text('department');
    if (department !== '') row.department = department;
    const costCenter = this.text('cost_center');
    if (costCenter !== '') row.costCenter = costCenter;
    const managers = this.text('managers');
    if (managers !== '')
      row.managers = /[|;]/.test(managers)
        ? managers
            .split(/[|;]/)
            .map((m) => m.trim())
            .filter((m) => m !== '')
        : [managers];
    return row;
  }

  /** The trimmed cell of `field`; `''` when the file has no such column. Checks the service's length limit. */
  private text(field: Field): string {
    const i = this.index[field];
    if (i === -1) return '';
    const value = this.cell(i);
    // The decoder refused invalid UTF-8, so only the length needs checking (a UTF-16 unit is at most 3 bytes).
    if (value.length * 3 > MAX_STRING_BYTES && Buffer.byteLength(value, 'utf8') > MAX_STRING_BYTES) {
      this.problem(
        this.headers[i]!,
        `the value is longer than ${MAX_STRING_BYTES} bytes (UTF-8), the service's limit`,
      );
      return '';
    }
    return value;
  }

  /** The trimmed cell at column `i`, shared with equal earlier cells of the column where that pays. */
  private cell(i: number): string {
    const value = (this.fields[i] ?? '').trim();
    const shared = this.shared[i];
    return shared === undefined || value === '' ? value : shared.intern(value);
  }

  /** The cell of `field`, or undefined when it is empty or the file has no such column. */
  private optional(field: Field): string | undefined {
    const value = this.text(field);
    return value === '' ? undefined : value;
  }

  private required(field: Field): string {
    const value = this.text(field);
    if (value === '') this.problem(this.columnOf(field), `the ${field} is empty`);
    return value;
  }

  private date(field: Field): string | undefined {
    const text = this.text(field);
    if (text === '') return undefined;
    const read = this.dates.get(text) ?? this.dates.set(text, readDate(text, this.options.dateOrder));
    if (read.ok) return read.value;
    this.problem(this.columnOf(field), read.problem);
    return undefined;
  }

  private customProperties(): Record<string, string> | undefined {
    let props: Record<string, string> | undefined;
    for (const { index, name } of this.options.header.properties) {
      const value = this.cell(index);
      if (value === '') continue;
      if (value.length > MAX_PROPERTY_STRING) {
        this.problem(
          this.headers[index]!,
          `the value is longer than ${MAX_PROPERTY_STRING} characters, the service's limit for a custom property`,
        );
        continue;
      }
      (props ??= {})[name] = value;
    }
    return props;
  }

  private columnOf(field: Field): string {
    return this.headers[this.index[field]] ?? field;
  }

  private problem(column: string, description: string): void {
    this.options.problems.add({ file: this.options.file, line: this.line, column }, description);
  }
}
