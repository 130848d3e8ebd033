import { Args } from '@oclif/core';
import { OaaError } from '@oaakit/core';
import { BaseCommand } from '../../base-command.js';
import { readManifestFile } from '../../rest/manifest-file.js';

/** A problem of a manifest, as `--json` prints it. */
interface Problem {
  path: string;
  line: number;
  column: number;
  message: string;
}

/** What `oaa manifest check --json` prints for a valid manifest. */
interface CheckOutput {
  file: string;
  valid: true;
  id: string;
  template: string;
  streams: { name: string; pagination: string; forEach?: string }[];
  indexes: string[];
  /** Entity kind -> the streams its sources read (`(once)` for a source without a stream). */
  entities: Record<string, string[]>;
  vars: { name: string; required: boolean }[];
  secrets: string[];
}

/** `oaa manifest check FILE`: a REST connector manifest checked alone, without its API. */
export default class ManifestCheck extends BaseCommand {
  static override summary =
    'Check a REST connector manifest: its schema, its references and every expression.';
  static override description = `Reads a manifest of @oaakit/plugin-rest (a YAML file, or the id of a shipped manifest: scim) and checks it as a run would before reading anything: the format (version 1), every field and what is allowed there, every template and JSONata expression compiled, and what points nowhere (a stream, an index, a secret, a var) or in a cycle. Every problem is printed as FILE:LINE:COLUMN: PATH: MESSAGE, all of them at once. Nothing is requested from the API: oaa manifest try reads it.

Exit codes: 0 valid, 2 problems found, 64 the file cannot be read.`;

  static override examples = [
    { description: 'Check a manifest', command: '<%= config.bin %> <%= command.id %> redmine.yaml' },
    {
      description: 'The problems as JSON',
      command: '<%= config.bin %> <%= command.id %> redmine.yaml --json',
    },
  ];

  static override args = {
    file: Args.string({ description: 'the manifest file, or a shipped manifest id (scim)', required: true }),
  };

  async run(): Promise<CheckOutput> {
    const { args } = await this.parse(ManifestCheck);
    const file = await readManifestFile(args.file);
    const { checkManifest, formatProblem } = await import('@oaakit/plugin-rest');
    const checked = checkManifest(file.text, file.name);
    if (checked.compiled === undefined) {
      const problems: Problem[] = [...checked.problems].sort(
        (a, b) => a.line - b.line || a.column - b.column,
      );
      const n = problems.length;
      throw new OaaError(
        `${file.name} is not a valid manifest (${n} problem${n === 1 ? '' : 's'}):\n${problems.map((p) => `  ${formatProblem(file.name, p)}`).join('\n')}`,
        {
          code: 'MANIFEST_INVALID',
          details: { file: file.name, problems },
          hints: [
            'the manifest format is in docs/declarative-connectors.md; editors check it with schema/manifest.schema.json',
          ],
        },
      );
    }
    const { manifest, streams, indexes, payload } = checked.compiled;
    const entities: Record<string, string[]> = {};
    for (const [kind, sources] of payload.kinds) entities[kind] = sources.map((s) => s.stream ?? '(once)');
    const out: CheckOutput = {
      file: file.name,
      valid: true,
      id: manifest.id,
      template: payload.template,
      streams: [...streams.values()].map((s) => ({
        name: s.name,
        pagination: s.pagination.type,
        ...(s.forEach === undefined ? {} : { forEach: s.forEach }),
      })),
      indexes: [...indexes.keys()],
      entities,
      vars: Object.entries(manifest.vars ?? {}).map(([name, v]) => ({
        name,
        required: v.default === undefined,
      })),
      secrets: Object.keys(manifest.secrets ?? {}),
    };
    this.log(`${file.name}: a valid manifest of connector ${out.id} (template ${out.template})`);
    this.log(
      `  streams: ${out.streams.map((s) => `${s.name} (${s.pagination}${s.forEach === undefined ? '' : `, for each ${s.forEach}`})`).join(', ')}`,
    );
    if (out.indexes.length > 0) this.log(`  indexes: ${out.indexes.join(', ')}`);
    this.log(
      `  entities: ${Object.entries(entities)
        .map(([kind, from]) => `${kind} <- ${from.join(' + ')}`)
        .join(', ')}`,
    );
    if (out.vars.length > 0)
      this.log(`  vars: ${out.vars.map((v) => (v.required ? `${v.name} (required)` : v.name)).join(', ')}`);
    if (out.secrets.length > 0) this.log(`  secrets: ${out.secrets.join(', ')}`);
    return out;
  }
}
