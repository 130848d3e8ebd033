import { relative, resolve } from 'node:path';
import { Args, Flags } from '@oclif/core';
import { TEMPLATES } from '@oaakit/core';
import type { Template } from '@oaakit/core';
import { BaseCommand } from '../../base-command.js';

/** What `oaa plugins new --json` prints. */
interface NewPluginOutput {
  name: string;
  connectorId: string;
  template: Template | 'manifest';
  dir: string;
  files: string[];
  /** Where its @oaakit/* dependencies come from: "registry", or an oaakit packages/ directory. */
  oaakit: string;
}

/** `oaa plugins new NAME`: a new connector plugin package from the template. */
export default class PluginsNew extends BaseCommand {
  static override summary = 'Create a connector plugin package from the template.';
  static override description = `Generates an npm package with a connector of the chosen payload template: the connector (src/index.ts), its config schema (zod), a source reader, a fixture, a README, an oaa.config.yaml that runs it on the fixture, and a test that runs it against the emulator. With --template manifest, a declarative connector instead: a starter manifest.yaml describing a REST API for @oaakit/plugin-rest, its oaa.config.yaml and acceptance.config.yaml, a recording of the example API it reads, and a README on writing it with oaa manifest try. NAME is the npm package name; the connector id is derived from it (oaa-plugin-wiki -> wiki). The directory (default: ./NAME without its scope) must not exist or be empty.`;

  static override examples = [
    {
      description: 'An application connector',
      command: '<%= config.bin %> <%= command.id %> oaa-plugin-wiki',
    },
    {
      description: 'A declarative connector: a REST API described in a YAML manifest',
      command: '<%= config.bin %> <%= command.id %> oaa-tracker --template manifest',
    },
    {
      description: 'An HR connector under a scope, into plugins/people',
      command:
        '<%= config.bin %> <%= command.id %> @acme/oaa-plugin-people --template hris --dir plugins/people',
    },
  ];

  static override args = {
    name: Args.string({
      description: 'npm package name of the plugin, e.g. oaa-plugin-wiki',
      required: true,
    }),
  };

  static override flags = {
    template: Flags.option({
      char: 't',
      description: 'payload template the connector produces, or manifest for a REST manifest',
      options: [...TEMPLATES, 'manifest'] as const,
      default: 'application' as const,
    })(),
    dir: Flags.string({ char: 'd', description: 'directory to create (default: ./NAME without its scope)' }),
    oaakit: Flags.string({
      description:
        'where the plugin\'s @oaakit/* dependencies come from: "registry" (a version range), or the packages/ directory of an oaakit checkout (file: dependencies). Default: this oaakit\'s own packages, unless it was installed from a registry',
      helpValue: 'registry|DIR',
    }),
  };

  async run(): Promise<NewPluginOutput> {
    const { args, flags } = await this.parse(PluginsNew);
    // Loaded here, not at the top: oclif imports every command module at start-up.
    const { createPlugin, pluginNames } = await import('@oaakit/runner');
    const dir = flags.dir ?? pluginNames(args.name).bareName;
    const created = await createPlugin({
      name: args.name,
      template: flags.template,
      dir,
      ...(flags.oaakit === undefined
        ? {}
        : { oaakit: flags.oaakit === 'registry' ? 'registry' : { dir: resolve(flags.oaakit) } }),
    });
    const shown = relative(process.cwd(), created.dir) || '.';
    this.log(
      `Created ${args.name} (connector ${created.names.connectorId}, template ${created.template}) in ${shown}:`,
    );
    for (const file of created.files) this.log(`  ${file}`);
    if (created.oaakit !== 'registry')
      this.log(`Its @oaakit/* dependencies are this oaakit's packages in ${created.oaakit.dir} (file:).`);
    this.log('');
    this.log('Next:');
    this.log(`  cd ${shown}`);
    this.log('  npm install');
    if (created.template === 'manifest') {
      this.log(`  ${created.names.tokenVariable}=dev npm test`);
      this.log(`  ${created.names.tokenVariable}=dev npx oaa run --dry-run --replay fixtures/source.har`);
    } else {
      this.log('  npm run build && npm test');
      this.log(`  ${created.names.tokenVariable}=dev npx oaa run --dry-run`);
    }
    return {
      name: args.name,
      connectorId: created.names.connectorId,
      template: created.template,
      dir: created.dir,
      files: created.files,
      oaakit: created.oaakit === 'registry' ? 'registry' : created.oaakit.dir,
    };
  }
}
