/** The csv-hris connector: HR exports (CSV) to an `hris` payload. */
import { CONNECTOR_API_VERSION, defineConnector } from '@oaakit/core';
import { csvHrisConfigSchema } from './config.js';
import { checkFiles } from './check.js';
import { extractEmployees } from './extract.js';

/**
 * Reads one or more CSV files of employees (streamed, so a file of a million rows is fine) into an
 * `hris` payload, with departments and cost centers as groups and managers linked.
 *
 * @example
 * // oaa config: { connector: '@oaakit/plugin-csv-hris', config: { files: ['employees.csv'] } }
 */
export const csvHrisConnector = defineConnector({
  id: 'csv-hris',
  version: '0.1.0',
  apiVersion: CONNECTOR_API_VERSION,
  template: 'hris',
  description: 'HR export (CSV) to an hris payload',
  configSchema: csvHrisConfigSchema,
  check: checkFiles,
  extract: extractEmployees,
});
