/**
 * The base of commands that talk to the service: `--url`, `--api-key` (or `--api-key-file`) and
 * `--state-dir`, and `connect()`, which resolves the target (or starts the embedded emulator) once
 * per command.
 */
import { resolve } from 'node:path';
import { Flags } from '@oclif/core';
import type { Interfaces } from '@oclif/core';
import { OaaError } from '@oaakit/core';
import { LOCAL_DIR } from '@oaakit/runner';
import type { TargetConfig } from '@oaakit/runner';
import { BaseCommand } from './base-command.js';
import type { KeySource } from './output/credential-hints.js';
import type { RenderErrorOptions } from './output/render-error.js';
import { connect } from './target/connect.js';
import type { Connection } from './target/connect.js';
import { secretFlags } from './secret-flags.js';
import { retryNotes } from './target/retry-notes.js';
import { readSavedUrl } from './target/saved-login.js';

/** Flags every service command takes. */
export const targetFlags = {
  url: Flags.string({
    description:
      'service URL (default: OAA_URL, the config file, `oaa auth login`, else the embedded emulator)',
    helpGroup: 'TARGET',
  }),
  ...secretFlags(
    { name: 'api-key', env: 'OAA_API_KEY', exposes: (key) => (key === '' ? undefined : 'the API key') },
    {
      description: 'API key (default: OAA_API_KEY, then the OS keychain entry of the URL)',
      fileDescription: 'file holding the API key, on one line',
      helpGroup: 'TARGET',
    },
  ),
  'state-dir': Flags.string({
    description: 'state directory of the embedded emulator',
    env: 'OAA_STATE_DIR',
    // The embedded emulator's directory: oaakit's local directory (see LOCAL_DIR).
    default: LOCAL_DIR,
    helpGroup: 'TARGET',
  }),
};

type TargetFlags = Interfaces.InferredFlags<typeof targetFlags>;

/** A command that calls the service. */
export abstract class ServiceCommand extends BaseCommand {
  static override baseFlags = { ...BaseCommand.baseFlags, ...targetFlags };

  private connection: Promise<Connection> | undefined;
  private keySource: KeySource | undefined;

  /**
   * The client of the resolved target, connected once per command. With no target configured, the
   * embedded emulator is started for the rest of the command, and a note says so on stderr.
   */
  protected connect(flags: TargetFlags, configTarget?: TargetConfig): Promise<Connection> {
    this.connection ??= this.open(flags, configTarget);
    return this.connection;
  }

  private async open(flags: TargetFlags, configTarget: TargetConfig | undefined): Promise<Connection> {
    // Catching Ctrl-C from here on lets the embedded emulator close cleanly.
    this.signal.throwIfAborted();
    this.addSecret(flags['api-key']);
    this.addSecret(process.env['OAA_API_KEY']);
    const savedUrl = await readSavedUrl(this.config.configDir);
    const hasUrl = Boolean(flags.url || process.env['OAA_URL'] || configTarget?.url || savedUrl);
    if (!hasUrl && (flags['api-key'] || process.env['OAA_API_KEY'])) {
      throw new OaaError('an API key is set but no service URL', {
        code: 'CONFIG_INVALID',
        hints: [
          'pass --url or set OAA_URL',
          'or leave out the key (--api-key, --api-key-file, OAA_API_KEY) to use the embedded emulator',
        ],
      });
    }
    // A key from OAA_API_KEY (which oclif puts in the flag) is left to the target resolution, so
    // that it is reported as the variable's; a key from --api-key-file is passed as the flag's.
    const keyFrom = this.secretOrigin('api-key')?.source;
    const stateDir = resolve(flags['state-dir']);
    const connection = await connect({
      flags: { url: flags.url, apiKey: keyFrom === 'env' ? undefined : flags['api-key'] },
      configTarget,
      savedUrl,
      stateDir,
      userAgent: `oaa/${this.config.version}`,
      logger: retryNotes((text) => this.note(text)),
    });
    this.addSecret(connection.apiKey);
    this.keySource =
      keyFrom === 'file' && connection.apiKeySource === 'flag' ? 'file' : connection.apiKeySource;
    this.onCleanup(() => connection.close());
    if (connection.embedded)
      this.note(`Using the embedded emulator (${stateDir}); pass --url or set OAA_URL to use a service.`);
    return connection;
  }

  protected override renderOptions(): RenderErrorOptions {
    return { ...super.renderOptions(), keySource: this.keySource };
  }
}
