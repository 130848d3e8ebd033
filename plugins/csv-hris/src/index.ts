// @oaakit/plugin-csv-hris: HR exports (CSV) to an OAA hris payload.
import { csvHrisConnector } from './connector.js';

export { csvHrisConnector } from './connector.js';
export { csvHrisConfigSchema, type CsvHrisConfig, type CsvHrisConfigInput } from './config.js';
export { extractEmployees, type CsvHrisContext } from './extract.js';
export { DEFAULT_COLUMNS, FIELDS, REQUIRED_FIELDS, type Field } from './fields.js';
export { COST_CENTER, DEPARTMENT, costCenterId, departmentId } from './directory.js';
export { DEFAULT_FALSE_WORDS, DEFAULT_TRUE_WORDS } from './values.js';
export { CsvParser, type CsvRecord, type CsvSyntaxProblem } from './csv/csv-parser.js';
export { CsvInputError } from './csv/csv-input-error.js';
export type { CsvParserOptions } from './csv/csv-options.js';
export { readCsv, type ReadCsvOptions } from './csv/read-csv.js';

export default csvHrisConnector;
