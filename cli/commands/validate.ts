/** `barrage validate`: the whole loading pipeline, no traffic; shows what a run would do. */
import { Command } from 'clipanion';
import { ExitCode } from '../exit-code.js';
import { PlanCommand } from './plan-command.js';

/** Checks a configuration and prints the effective values with their sources. */
export class ValidateCommand extends PlanCommand {
  static override paths = [['validate']];

  static override usage = Command.Usage({
    description: 'Check a configuration without sending traffic',
    details: `
      Loads the configuration file, the BARRAGE_* environment variables and the flags, merges them
      (flags > environment > file > defaults), validates everything and prints the effective values
      with the source of each (flag, environment variable, file:line or default), secrets redacted,
      followed by the plan. Every problem is reported at once; the exit code is 1 if there is any.
    `,
    examples: [
      ['Check a file', '$0 validate load.yaml'],
      ['See which layer wins', 'BARRAGE_CONCURRENCY=7 $0 validate load.yaml -c 9'],
    ],
  });

  /** Loads and prints. */
  async run(): Promise<number> {
    const { loaded } = await this.load();
    const [{ renderConfigView }, { renderPlanView }, { Redactor }] = await Promise.all([
      import('../render/config-view.js'),
      import('../render/plan-view.js'),
      import('../render/redact.js'),
    ]);
    const redactor = new Redactor(loaded);
    this.context.stdout.write(renderConfigView(loaded.raw, loaded.provenance, redactor));
    this.context.stdout.write('\n');
    // The plan shows endpoint names and urls, which may hold userinfo or ${ENV} values.
    this.context.stdout.write(redactor.text(renderPlanView(loaded.plan)));
    this.context.stdout.write('\nConfiguration is valid. Nothing was sent.\n');
    return ExitCode.Ok;
  }
}
