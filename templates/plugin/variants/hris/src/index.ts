/**
 * The __CONNECTOR_ID__ connector: reads the employees and departments of __DISPLAY_NAME__ into an
 * `hris` payload. The runner does the rest: validation, diff, the push and the saved state.
 */
import { CONNECTOR_API_VERSION, HrisPayloadBuilder, defineConnector } from '@oaakit/core';
import type { HrisPayload } from '@oaakit/core';
import { configSchema } from './config.js';
import { parseExport } from './records.js';
import { checkSource, readSource } from './source.js';

/** The connector; the package's default export, which `oaakit.connector` in package.json points at. */
export const connector = defineConnector({
  id: '__CONNECTOR_ID__',
  version: '0.1.0',
  apiVersion: CONNECTOR_API_VERSION,
  template: 'hris',
  description: '__DISPLAY_NAME__ employees and departments',
  configSchema,
  secrets: [{ name: 'token', description: 'API token of __DISPLAY_NAME__, sent when `source` is a URL' }],
  check: checkSource,
  async extract(ctx): Promise<HrisPayload> {
    const data = parseExport(await readSource(ctx), ctx.config.source);
    ctx.logger.info({ employees: data.employees.length }, 'export read');

    const { name, hrisType, idpProviders } = ctx.config;
    const b = new HrisPayloadBuilder({
      name,
      hris_type: hrisType,
      system: { id: hrisType, name, idp_providers: idpProviders },
    });
    // Departments first: the builder checks each employee's department as the employee is added.
    for (const d of data.departments) b.addGroup({ id: d.id, name: d.name, group_type: 'Department' });

    ctx.progress.start('employees', data.employees.length);
    for (const e of data.employees) {
      ctx.signal.throwIfAborted();
      b.addEmployee({
        id: e.id,
        name: `${e.firstName} ${e.lastName}`,
        employee_number: e.number,
        first_name: e.firstName,
        last_name: e.lastName,
        email: e.email,
        job_title: e.title,
        employment_status: e.status,
        is_active: e.status !== 'TERMINATED',
        department: e.department === undefined ? undefined : { id: e.department },
        // A manager may come later in the export: build() checks that each one is an employee.
        managers: e.manager === undefined ? [] : [{ id: e.manager }],
        // The payload wants RFC 3339 timestamps; the source has plain dates.
        start_date: e.startDate === undefined ? undefined : `${e.startDate}T00:00:00Z`,
        employment_types: e.type === undefined ? [] : [e.type],
      });
      ctx.progress.tick();
    }
    return b.build();
  },
});

export default connector;
