import { Args } from '@oclif/core';
import { readIconFile } from '../../../payload/read-icon-file.js';
import { formatBytes } from '../../../output/format.js';
import { ServiceCommand } from '../../../service-command.js';
import { findProvider } from '../../../target/lookup.js';

/** `oaa providers icon set PROVIDER FILE`. */
export default class IconSet extends ServiceCommand {
  static override summary = "Set a provider's icon from a PNG or SVG file.";
  static override description =
    'Uploads the icon shown for the provider. The file must be a PNG or SVG image of at most 64 KB.';
  static override examples = [
    { description: 'Set an SVG icon', command: '<%= config.bin %> <%= command.id %> "Wiki" wiki.svg' },
  ];
  static override args = {
    provider: Args.string({ description: 'provider name or id', required: true }),
    file: Args.string({ description: 'PNG or SVG file', required: true }),
  };

  async run(): Promise<{ provider: { id: string; name: string }; mime_type: string; bytes: number }> {
    const { args, flags } = await this.parse(IconSet);
    const icon = await readIconFile(args.file);
    const { client } = await this.connect(flags);
    const provider = await findProvider(client, args.provider, this.signal);
    await client.icons.set({ providerId: provider.id, icon: icon.bytes, signal: this.signal });
    this.log(
      `Set the icon of provider "${provider.name}": ${icon.mimeType}, ${formatBytes(icon.bytes.byteLength)}.`,
    );
    return {
      provider: { id: provider.id, name: provider.name },
      mime_type: icon.mimeType,
      bytes: icon.bytes.byteLength,
    };
  }
}
