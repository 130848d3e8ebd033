/**
 * Everything that needs the whole input: duplicate employee numbers, department and cost center
 * groups, and manager links (a manager may appear after the employee, or in another file).
 */
import type { HrisEmployee, HrisGroup, HrisPayload, HrisPayloadBuilder } from '@oaakit/core';
import type { Problems } from './problems.js';
import type { EmployeeRow } from './row-reader.js';

/** Group types, as the service's examples spell them. */
export const DEPARTMENT = 'Department';
export const COST_CENTER = 'Cost Center';

/** Group ids carry the type, so a department and a cost center of the same name stay two groups. */
export const departmentId = (name: string) => `department:${name}`;
export const costCenterId = (name: string) => `cost_center:${name}`;

/** One file, and how its header names the columns that problems found here point at. */
export interface RowSource {
  file: string;
  employeeNumberColumn: string;
  idColumn: string;
  managersColumn: string;
}

/** A row whose employee number (or id) an earlier row already has. */
interface Duplicate {
  first: HrisEmployee;
  source: RowSource;
  line: number;
  column: string;
  what: string;
}

const AMBIGUOUS = null;
const UNSEEN = 0;
/** What a manager email search found. */
type Found = HrisEmployee | typeof AMBIGUOUS | typeof UNSEEN;

/**
 * Why so few maps: a `Map` of a million strings costs about a second to fill here. The builder
 * already indexes employees by id (case-insensitively), which is the employee number unless an id
 * column is configured; emails are looked up only for managers not found by number.
 */
export class Directory {
  // Parallel arrays rather than an object per row: a million rows stay cheap for the collector.
  private readonly employees: HrisEmployee[] = [];
  private readonly sources: RowSource[] = [];
  private readonly lines: number[] = [];
  private readonly pendingEmployee: number[] = [];
  private readonly pendingRef: string[] = [];
  private readonly duplicates: Duplicate[] = [];
  /** Employee number (lower case) -> employee, kept only when ids are not employee numbers. */
  private byNumber: Map<string, HrisEmployee> | undefined;
  /** Group reference objects by name, one per group, shared by its members. */
  private readonly departments = new Map<string, { id: string }>();
  private readonly costCenters = new Map<string, { id: string }>();

  constructor(
    private readonly builder: HrisPayloadBuilder,
    private readonly problems: Problems,
  ) {}

  /** Adds the employee of the row on `line` of `source`, unless its employee number or id is taken. */
  add(row: EmployeeRow, source: RowSource, line: number): void {
    const e = row.employee;
    const number = e.employee_number;
    if (e.id !== number || this.byNumber) {
      if (!this.byNumber) this.byNumber = this.indexNumbers();
      const key = fold(number);
      const first = this.byNumber.get(key);
      if (first)
        return this.duplicate({
          first,
          source,
          line,
          column: source.employeeNumberColumn,
          what: `employee number ${JSON.stringify(number)}`,
        });
      this.byNumber.set(key, e);
    }
    const first = this.builder.employee(e.id);
    if (first) {
      const column = e.id === number ? source.employeeNumberColumn : source.idColumn;
      return this.duplicate({
        first,
        source,
        line,
        column,
        what: `${e.id === number ? 'employee number' : 'employee id'} ${JSON.stringify(e.id)}`,
      });
    }
    if (row.department !== undefined)
      e.department = this.group(this.departments, row.department, departmentId, DEPARTMENT);
    if (row.costCenter !== undefined)
      e.cost_center = this.group(this.costCenters, row.costCenter, costCenterId, COST_CENTER);

    const index = this.employees.length;
    this.builder.addEmployee(e);
    this.employees.push(e);
    this.sources.push(source);
    this.lines.push(line);
    for (const ref of row.managers) {
      this.pendingEmployee.push(index);
      this.pendingRef.push(ref);
    }
  }

  /**
   * Links every manager reference (an employee number first, else a work email), throws the
   * collected problems if there are any, and returns the payload. A reference to the employee
   * itself (how some exports mark the top of the tree) is dropped.
   */
  finish(): HrisPayload {
    this.reportDuplicates();
    const byNumber = this.byNumber;
    const unresolved: number[] = [];
    for (let k = 0; k < this.pendingRef.length; k++) {
      const ref = this.pendingRef[k]!;
      const manager = byNumber ? byNumber.get(fold(ref)) : this.builder.employee(ref);
      if (manager) this.link(this.pendingEmployee[k]!, manager);
      else unresolved.push(k);
    }
    if (unresolved.length > 0) {
      const byEmail = this.findEmails(unresolved.map((k) => fold(this.pendingRef[k]!)));
      for (const k of unresolved) {
        const ref = this.pendingRef[k]!;
        const manager = byEmail.get(fold(ref));
        if (manager !== UNSEEN && manager !== AMBIGUOUS && manager !== undefined) {
          this.link(this.pendingEmployee[k]!, manager);
          continue;
        }
        const index = this.pendingEmployee[k]!;
        const source = this.sources[index]!;
        const why =
          manager === AMBIGUOUS
            ? 'is the work email of more than one employee: use the employee number'
            : 'is not the employee number or work email of any employee in the input';
        this.problems.add(
          { file: source.file, line: this.lines[index]!, column: source.managersColumn },
          `the manager ${JSON.stringify(ref)} ${why}`,
        );
      }
    }
    this.pendingEmployee.length = 0;
    this.pendingRef.length = 0;
    this.problems.throwIfAny();
    return this.builder.build();
  }

  private link(index: number, manager: HrisEmployee): void {
    const e = this.employees[index]!;
    if (manager === e) return;
    const id = manager.id;
    if (!e.managers) e.managers = [{ id }];
    else if (!e.managers.some((m) => m.id === id)) e.managers.push({ id });
  }

  private group(
    refs: Map<string, { id: string }>,
    name: string,
    idOf: (name: string) => string,
    type: string,
  ): { id: string } {
    let ref = refs.get(name);
    if (ref) return ref;
    const id = idOf(name);
    // Ids compare without case, as the service compares them: "Sales" and "sales" are one group.
    const group: HrisGroup = this.builder.group(id) ?? this.builder.addGroup({ id, name, group_type: type });
    ref = { id: group.id };
    refs.set(name, ref);
    return ref;
  }

  private duplicate(d: Duplicate): void {
    // Where the first one is, is looked up at the end, for the few that are listed.
    if (this.problems.listing) this.duplicates.push(d);
    else this.problems.add({ file: d.source.file, line: d.line, column: d.column }, d.what);
  }

  private reportDuplicates(): void {
    if (this.duplicates.length === 0) return;
    const firsts = new Map<HrisEmployee, number>(this.duplicates.map((d) => [d.first, -1]));
    this.employees.forEach((e, i) => firsts.has(e) && firsts.set(e, i));
    for (const d of this.duplicates) {
      const i = firsts.get(d.first)!;
      const earlier = this.sources[i]!;
      const where = earlier === d.source ? `line ${this.lines[i]}` : `${earlier.file}:${this.lines[i]}`;
      this.problems.add(
        { file: d.source.file, line: d.line, column: d.column },
        `the ${d.what} is already used on ${where}`,
      );
    }
    this.duplicates.length = 0;
  }

  private indexNumbers(): Map<string, HrisEmployee> {
    return new Map(this.employees.map((e) => [fold(e.employee_number), e]));
  }

  /**
   * The employee of each of `emails` (folded), AMBIGUOUS when several have it, UNSEEN when none.
   * One pass over the employees with a table of only the wanted emails: far cheaper than
   * indexing every employee's email.
   */
  private findEmails(emails: string[]): Map<string, Found> {
    const found = new Map<string, Found>(emails.map((e) => [e, UNSEEN]));
    for (const e of this.employees) {
      if (!e.email) continue;
      const key = fold(e.email);
      const seen = found.get(key);
      if (seen === undefined) continue;
      found.set(key, seen === UNSEEN ? e : AMBIGUOUS);
    }
    return found;
  }
}

/** `s` in lower case, without a copy when it has no upper-case letter (the usual case). */
function fold(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c >= 65 && c <= 90) || c >= 128) return s.toLowerCase();
  }
  return s;
}
