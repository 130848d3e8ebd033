import { writeFile } from 'node:fs/promises';
import { Args, Flags } from '@oclif/core';
import { formatBytes } from '../../../output/format.js';
import { ServiceCommand } from '../../../service-command.js';
import { findProvider } from '../../../target/lookup.js';

/** What `oaa providers icon get --json` prints. */
interface IconOutput {
  provider: { id: string; name: string };
  mime_type: string;
  bytes: number;
  /** The file written, with `--out`. */
  out: string | null;
  icon_base64: string;
}

/** `oaa providers icon get PROVIDER [--out FILE]`. */
export default class IconGet extends ServiceCommand {
  static override summary = "Show a provider's icon, or save it to a file.";
  static override description =
    "Prints the icon's MIME type and size; with --out, writes the image to that file.";
  static override examples = [
    { description: 'Type and size', command: '<%= config.bin %> <%= command.id %> "Wiki"' },
    { description: 'Save the image', command: '<%= config.bin %> <%= command.id %> "Wiki" --out wiki.svg' },
  ];

  static override args = { provider: Args.string({ description: 'provider name or id', required: true }) };
  static override flags = { out: Flags.string({ char: 'o', description: 'write the image to this file' }) };

  async run(): Promise<IconOutput> {
    const { args, flags } = await this.parse(IconGet);
    const { client } = await this.connect(flags);
    const provider = await findProvider(client, args.provider, this.signal);
    const icon = await client.icons.get(provider.id, { signal: this.signal });
    const bytes = Buffer.from(icon.icon_base64, 'base64');
    if (flags.out !== undefined) await writeFile(flags.out, bytes);
    const saved = flags.out === undefined ? '' : `, written to ${flags.out}`;
    this.log(`${icon.mime_type}, ${formatBytes(bytes.byteLength)}${saved}`);
    return {
      provider: { id: provider.id, name: provider.name },
      mime_type: icon.mime_type,
      bytes: bytes.byteLength,
      out: flags.out ?? null,
      icon_base64: icon.icon_base64,
    };
  }
}
