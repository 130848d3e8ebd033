/**
 * The base of every `oaa` command: `--json`, error rendering and exit codes in one place, cleanup
 * that runs however the command ends, and an AbortSignal that Ctrl-C (or SIGTERM) fires.
 */
import { Command } from '@oclif/core';
import type { Interfaces } from '@oclif/core';
import { OaaError } from '@oaakit/core';
import { EXIT, exitCodeOf } from './exit-codes.js';
import { errorJson, errorText, scrub } from './output/render-error.js';
import type { RenderErrorOptions } from './output/render-error.js';
import { secretSpecOf, takeSecretFlag } from './secret-flags.js';
import type { TakenSecret } from './secret-flags.js';

/** The flag values oclif parses into (its own `FlagOutput`, which it does not export). */
type FlagValues = Record<string, unknown>;

/** A step to run when the command ends, last registered first. */
type Cleanup = () => Promise<void> | void;

/**
 * Commands return their result object: `--json` prints it as is, and a human sees what the command
 * printed with `this.log`. Errors are thrown as `OaaError`s and rendered here, never by the command.
 */
export abstract class BaseCommand extends Command {
  static override enableJsonFlag = true;

  private readonly secrets: string[] = [];
  private readonly secretFlags = new Map<string, TakenSecret>();
  private readonly cleanups: Cleanup[] = [];
  private controller: AbortController | undefined;
  private readonly onSignal = (): void => {
    if (this.controller?.signal.aborted) process.exit(EXIT.ABORTED);
    this.controller?.abort(new OaaError('interrupted', { code: 'ABORTED' }));
  };

  /**
   * Fires on the first SIGINT or SIGTERM (a second one exits at once); long operations pass it on.
   * Signals are caught only once a command asks for this, so the others stop on Ctrl-C as usual.
   */
  protected get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      process.on('SIGINT', this.onSignal);
      process.on('SIGTERM', this.onSignal);
    }
    return this.controller.signal;
  }

  /** Registers a secret value (an API key) so that no output of this command ever shows it. */
  protected addSecret(value: string | undefined): void {
    if (value !== undefined && value !== '') this.secrets.push(value);
  }

  /**
   * Parses the command line, then resolves each flag that carries a secret (see `secret-flags.ts`):
   * its `-file` flag is read into it, a secret typed on the command line is warned about on stderr
   * (never in the `--json` output on stdout), and every value that holds a secret is kept out of
   * every output.
   */
  protected override async parse<F extends FlagValues, B extends FlagValues, A extends FlagValues>(
    options?: Interfaces.Input<F, B, A>,
    argv?: string[],
  ): Promise<Interfaces.ParserOutput<F, B, A>> {
    const output = await super.parse(options, argv);
    const input = options ?? (this.ctor as Interfaces.Input<F, B, A>);
    const flags = output.flags as FlagValues;
    for (const definition of Object.values({ ...input.baseFlags, ...input.flags })) {
      const spec = secretSpecOf(definition);
      if (spec === undefined) continue;
      const taken = await takeSecretFlag(spec, { raw: output.raw, flags });
      if (taken === undefined) continue;
      for (const value of [taken.value].flat()) if (spec.exposes(value) !== undefined) this.addSecret(value);
      flags[spec.name] = taken.value;
      this.secretFlags.set(spec.name, taken);
      if (taken.warning !== undefined) this.note(taken.warning);
    }
    return output;
  }

  /** Where the value of a secret flag came from (`--api-key`, its file, its variable), if given. */
  protected secretOrigin(name: string): Pick<TakenSecret, 'source' | 'origin'> | undefined {
    return this.secretFlags.get(name);
  }

  /** Registers a cleanup step (closing an emulator, a client) for when the command ends. */
  protected onCleanup(step: Cleanup): void {
    this.cleanups.push(step);
  }

  /** A one-line note for the user on stderr; shown in `--json` mode too, since stdout stays clean. */
  protected note(text: string): void {
    process.stderr.write(`${scrub(text, this.secrets)}\n`);
  }

  /** How this command renders errors; service commands add where their API key came from. */
  protected renderOptions(): RenderErrorOptions {
    return { secrets: this.secrets, debug: process.env['OAA_DEBUG'] === '1', commandId: this.id };
  }

  /** An error as `catch` would show it to a human, for commands that report several errors. */
  protected renderError(error: unknown): string {
    return errorText(error, this.renderOptions());
  }

  override log(message = '', ...args: unknown[]): void {
    super.log(scrub(message, this.secrets), ...args);
  }

  override logJson(json: unknown): void {
    process.stdout.write(`${JSON.stringify(scrub(json, this.secrets), null, 2)}\n`);
  }

  /** One compact JSON line on stdout, for output that readers take line by line. */
  protected logJsonLine(json: unknown): void {
    process.stdout.write(`${JSON.stringify(scrub(json, this.secrets))}\n`);
  }

  /** Renders the error (text on stderr, or `{ error }` on stdout with `--json`) and sets the exit code. */
  override async catch(error: Error & { exitCode?: number; code?: string }): Promise<void> {
    if (error.code === 'EEXIT') throw error;
    const options = this.renderOptions();
    process.exitCode = this.controller?.signal.aborted ? EXIT.ABORTED : exitCodeOf(error);
    if (this.jsonEnabled()) this.logJson({ error: errorJson(error, options) });
    else process.stderr.write(`${errorText(error, options)}\n`);
    return Promise.resolve();
  }

  override async finally(error: Error | undefined): Promise<void> {
    process.off('SIGINT', this.onSignal);
    process.off('SIGTERM', this.onSignal);
    for (const step of this.cleanups.reverse()) {
      try {
        await step();
      } catch (cleanupError) {
        if (error === undefined) this.note(`warning: cleanup failed: ${(cleanupError as Error).message}`);
      }
    }
    await super.finally(error);
  }
}
