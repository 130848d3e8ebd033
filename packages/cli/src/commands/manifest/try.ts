import { Args, Flags } from '@oclif/core';
import { OaaError, isOaaError, type ConnectorLogger } from '@oaakit/core';
import type { TryResult } from '@oaakit/plugin-rest';
import { parse as parseYaml } from 'yaml';
import { BaseCommand } from '../../base-command.js';
import { readManifestFile } from '../../rest/manifest-file.js';

/** `NAME=VALUE` pairs of a repeatable flag. */
function pairs(flag: string, values: readonly string[] | undefined): [string, string][] {
  return (values ?? []).map((text) => {
    const at = text.indexOf('=');
    if (at <= 0)
      throw new OaaError(`--${flag} ${JSON.stringify(text)}: write NAME=VALUE`, {
        code: 'USAGE',
        details: { flag, value: text },
      });
    return [text.slice(0, at), text.slice(at + 1)];
  });
}

/** `oaa manifest try FILE --stream S`: one page of a stream, raw records next to what the mappings make. */
export default class ManifestTry extends BaseCommand {
  static override summary =
    'Read one page of a stream of a REST manifest and show what the mappings make of each record.';
  static override description = `The low-code connector builder: reads the first page of STREAM (with for_each, for the first record of the parent stream) and prints each raw record next to what every mapping of that stream makes of it (local users, grants...), or the mapping's error at its manifest line. Indexes the mappings use are read whole, so the entities are what a run would make; requests go through the runner's source HTTP (retries, Retry-After), as in a run.

The vars come from --vars NAME=VALUE (values are YAML: 100 is a number, [a, b] a list) and the secrets from --secret NAME=REFERENCE (env:VARIABLE or keychain:SERVICE/ACCOUNT, never a value); or both from a connector entry of a config file (--config, --connector), which the flags override.

With --replay, the requests are answered from a recording instead (a request it lacks fails, naming the nearest recorded one).

Exit codes: 0 read, 2 the manifest has problems (see oaa manifest check), 5 a missing or unusable var or secret, 8 the source failed or refused the credentials, 64 bad usage.`;

  static override examples = [
    {
      description: 'The users of a Redmine, the API key from an environment variable',
      command:
        '<%= config.bin %> <%= command.id %> redmine.yaml --stream users --vars url=https://redmine.example.com --secret apiKey=env:REDMINE_API_KEY',
    },
    {
      description: 'With the vars and secrets of a connector entry, as JSON',
      command:
        '<%= config.bin %> <%= command.id %> redmine.yaml --stream memberships --config oaa.config.yaml --connector tracker --json',
    },
  ];

  static override args = {
    file: Args.string({ description: 'the manifest file, or a shipped manifest id (scim)', required: true }),
  };

  static override flags = {
    stream: Flags.string({ char: 's', description: 'the stream to read', required: true }),
    vars: Flags.string({ description: 'a var, NAME=VALUE (VALUE is YAML); repeatable', multiple: true }),
    secret: Flags.string({
      description: 'a secret, NAME=REFERENCE (env:VARIABLE or keychain:SERVICE/ACCOUNT); repeatable',
      multiple: true,
    }),
    config: Flags.string({ char: 'c', description: 'a config file with a connector entry of this manifest' }),
    connector: Flags.string({ description: 'the connector entry whose vars and secrets are used' }),
    pages: Flags.integer({ description: 'pages to read per request chain', default: 1, min: 1 }),
    records: Flags.integer({ description: 'records to show at most', default: 20, min: 1 }),
    replay: Flags.string({
      description:
        'answer the requests from this HAR file (oaa run --record or oaa plugins test --record wrote it) instead of the API',
    }),
  };

  async run(): Promise<TryResult> {
    const { args, flags } = await this.parse(ManifestTry);
    const file = await readManifestFile(args.file);
    const { compileManifestText, formatTryResult, tryStream } = await import('@oaakit/plugin-rest');
    let compiled;
    try {
      compiled = compileManifestText(file.text, file.name);
    } catch (error) {
      if (isOaaError(error) && error.code === 'MANIFEST_INVALID')
        throw new OaaError(error.message, {
          code: 'MANIFEST_INVALID',
          details: error.details,
          hints: error.hints,
        });
      throw error;
    }
    if (!compiled.streams.has(flags.stream))
      throw new OaaError(`${file.name} has no stream "${flags.stream}"`, {
        code: 'USAGE',
        details: { stream: flags.stream, streams: [...compiled.streams.keys()] },
        hints: [`its streams: ${[...compiled.streams.keys()].join(', ')}`],
      });

    const { vars, references } = await this.entry(flags.config, flags.connector);
    for (const [name, text] of pairs('vars', flags.vars)) vars[name] = parseYaml(text) as unknown;
    for (const [name, ref] of pairs('secret', flags.secret)) references[name] = ref;
    const secrets = await this.resolveSecrets(references, Object.keys(compiled.manifest.secrets ?? {}));

    const { createSourceHttp, readHar, replayFetch } = await import('@oaakit/runner');
    const logger: ConnectorLogger = {
      debug: () => undefined,
      info: () => undefined,
      warn: (obj, msg) => this.note(`warning: ${msg ?? (typeof obj === 'string' ? obj : '')}`),
      error: (obj, msg) => this.note(`error: ${msg ?? (typeof obj === 'string' ? obj : '')}`),
    };
    const fetch =
      flags.replay === undefined
        ? undefined
        : replayFetch(await readHar(flags.replay), {
            file: flags.replay,
            scrub: { secrets: Object.values(secrets) },
          });
    const http = createSourceHttp({
      signal: this.signal,
      logger,
      secrets: Object.values(secrets),
      ...(fetch === undefined ? {} : { fetch }),
    });
    let result: TryResult;
    try {
      result = await tryStream(compiled, {
        stream: flags.stream,
        vars,
        secrets,
        http,
        signal: this.signal,
        logger,
        pages: flags.pages,
        records: flags.records,
      });
    } catch (error) {
      if (isOaaError(error) && error.code === 'MANIFEST_INVALID')
        throw new OaaError(error.message, {
          code: 'CONFIG_INVALID',
          details: error.details,
          hints: error.hints,
        });
      throw new OaaError(
        `reading stream ${flags.stream} of ${file.name} failed: ${(error as Error).message}`,
        {
          code: 'EXTRACT_FAILED',
          cause: error,
          details: {
            stream: flags.stream,
            ...(isOaaError(error) ? { causeCode: error.code, cause: error.details } : {}),
          },
          hints: isOaaError(error) ? error.hints : [],
        },
      );
    }
    if (!this.jsonEnabled()) process.stdout.write(formatTryResult(result).replace(/\n$/, '') + '\n');
    return result;
  }

  /** The vars and secret references of `--connector` in `--config`, if given. */
  private async entry(
    config: string | undefined,
    connector: string | undefined,
  ): Promise<{ vars: Record<string, unknown>; references: Record<string, string> }> {
    if (connector === undefined) {
      if (config !== undefined)
        throw new OaaError('--config names the file of a connector entry: give --connector too', {
          code: 'USAGE',
        });
      return { vars: {}, references: {} };
    }
    const { findConnectorEntry, loadConfig } = await import('@oaakit/runner');
    const loaded = await loadConfig(config === undefined ? {} : { path: config });
    const { entry } = findConnectorEntry(loaded, connector);
    const given = (entry.config ?? {}) as { vars?: Record<string, unknown> };
    return { vars: { ...given.vars }, references: { ...entry.secrets } };
  }

  /** The values of the secrets the manifest declares, from their references. */
  private async resolveSecrets(
    references: Record<string, string>,
    declared: string[],
  ): Promise<Record<string, string>> {
    const { resolveSecretReference } = await import('@oaakit/runner');
    const out: Record<string, string> = {};
    const missing: string[] = [];
    for (const name of declared) {
      const ref = references[name];
      if (ref === undefined) {
        missing.push(name);
        continue;
      }
      let value: string | undefined;
      try {
        value = await resolveSecretReference(ref);
      } catch (error) {
        throw new OaaError(`--secret ${name}: ${(error as Error).message}`, {
          code: 'CONFIG_INVALID',
          cause: error,
        });
      }
      if (value === undefined)
        throw new OaaError(`the secret "${name}" refers to ${ref}, which is not set`, {
          code: 'SECRET_MISSING',
          hints: [
            ref.startsWith('env:')
              ? `export ${ref.slice(4)}=...`
              : 'store it in the keychain, or use an env: reference',
          ],
        });
      this.addSecret(value);
      out[name] = value;
    }
    if (missing.length > 0)
      throw new OaaError(
        `the manifest needs the secret${missing.length === 1 ? '' : 's'} ${missing.join(', ')}`,
        {
          code: 'SECRET_MISSING',
          details: { missing },
          hints: [
            `give --secret ${missing[0]}=env:VARIABLE, or --config and --connector of an entry that has it`,
          ],
        },
      );
    return out;
  }
}
