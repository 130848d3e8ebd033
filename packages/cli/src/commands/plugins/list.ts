import { isAbsolute, relative } from 'node:path';
import { Flags } from '@oclif/core';
import { CONNECTOR_API_VERSION } from '@oaakit/core';
import type { DiscoveredPlugin, LoadedConfig } from '@oaakit/runner';
import { BaseCommand } from '../../base-command.js';
import { renderTable } from '../../output/table.js';
import type { Column } from '../../output/table.js';

function where(plugin: DiscoveredPlugin): string {
  return plugin.origins
    .map((o) => (o === 'config' ? `config (${plugin.configIds.join(', ')})` : o))
    .join(', ');
}

/** Relative to the working directory when inside it, else absolute. */
function shownPath(cwd: string, path: string): string {
  const rel = relative(cwd, path);
  if (rel === '') return '.';
  return rel.startsWith('..') || isAbsolute(rel) ? path : rel;
}

function columns(cwd: string): Column<DiscoveredPlugin>[] {
  return [
    { header: 'ID', get: (p) => p.id },
    { header: 'PACKAGE', get: (p) => p.packageName },
    { header: 'VERSION', get: (p) => p.version },
    { header: 'TEMPLATE', get: (p) => p.template },
    { header: 'API', get: (p) => (typeof p.apiVersion === 'number' ? p.apiVersion : undefined), right: true },
    { header: 'SUPPORTED', get: (p) => (p.supported ? 'yes' : 'no') },
    { header: 'FOUND IN', get: where },
    { header: 'PATH', get: (p) => shownPath(cwd, p.path) },
  ];
}

/** `oaa plugins list`: the connector plugins within reach, and whether this oaa can run them. */
export default class PluginsList extends BaseCommand {
  static override summary = 'List the connector plugins oaa can find.';
  static override description = `A plugin is a package whose package.json has an "oaakit" key. Listed are the plugins named by the config file (--config, or oaa.config.yaml / .yml / .json in this directory when there is one), the package in this directory, the packages of the enclosing npm workspace, and the packages in node_modules from here upwards. Each is loaded to show its connector's id and template; SUPPORTED says whether its apiVersion (package.json oaakit.apiVersion) is the one this oaa runs (${CONNECTOR_API_VERSION}). A plugin that cannot be loaded is listed with the reason.`;

  static override examples = [
    { description: 'Table', command: '<%= config.bin %> <%= command.id %>' },
    {
      description: 'Plugins that this oaa cannot run',
      command: "<%= config.bin %> <%= command.id %> --json | jq '.[] | select(.supported | not)'",
    },
  ];

  static override flags = {
    config: Flags.string({
      char: 'c',
      description: 'config file (default: oaa.config.yaml, .yml or .json in this directory, if any)',
    }),
  };

  async run(): Promise<DiscoveredPlugin[]> {
    const { flags } = await this.parse(PluginsList);
    // Loaded here, not at the top: oclif imports every command module at start-up.
    const { discoverPlugins, findConfigFile, loadConfig } = await import('@oaakit/runner');
    const cwd = process.cwd();
    let config: LoadedConfig | undefined;
    if (flags.config !== undefined) config = await loadConfig({ path: flags.config });
    else if (findConfigFile(cwd) !== undefined) config = await loadConfig({ cwd });
    const plugins = await discoverPlugins({ cwd, ...(config === undefined ? {} : { config }) });
    if (plugins.length === 0) {
      this.log('No plugins found.');
      return plugins;
    }
    this.log(renderTable(columns(cwd), plugins));
    const broken = plugins.filter((p) => p.error !== undefined);
    if (broken.length > 0) this.log('');
    for (const { id, packageName, path, error } of broken) {
      const hints = error!.hints.length > 0 ? ` (${error!.hints.join('; ')})` : '';
      this.log(`${id ?? packageName ?? shownPath(cwd, path)}: ${error!.message}${hints}`);
    }
    return plugins;
  }
}
