/**
 * `barrage init [URL]` (k6's `k6 new`): writes a commented starter configuration, or with `--ts`
 * a TypeScript scenario, for one URL. An existing file is never overwritten.
 */
import { Command, Option } from 'clipanion';
import { ConfigError } from '../../dsl/issues.js';
import { ExitCode } from '../exit-code.js';
import { BaseCommand } from './base-command.js';

/** Writes a starter file. */
export class InitCommand extends BaseCommand {
  static override paths = [['init']];

  protected override readonly issuesIn = 'in the arguments (nothing was written)';

  static override usage = Command.Usage({
    description: 'Write a starter configuration (or TypeScript scenario) for a URL',
    details: `
      Writes load.yaml (or load.ts with --ts) in the working directory: the URL's origin as the
      target, its path as one endpoint, a load and two thresholds, each line commented. An
      existing file is left as it is (exit code 1). The file validates as written.
    `,
    examples: [
      ['A YAML starter', '$0 init http://127.0.0.1:8080/json'],
      ['A TypeScript scenario', '$0 init https://staging.example.com/api/items --ts'],
      ['Another file name', '$0 init http://127.0.0.1:8080 -o smoke.yaml'],
    ],
  });

  url = Option.String({ required: false, name: 'URL' });
  ts = Option.Boolean('--ts', false, { description: 'Write a TypeScript scenario (load.ts)' });
  output = Option.String('-o,--output', {
    description: 'The file to write (default load.yaml, or load.ts with --ts)',
  });

  /** Writes the file, unless it exists. */
  async run(): Promise<number> {
    const text = this.url ?? 'http://127.0.0.1:8080/';
    if (!URL.canParse(text) || !/^https?:$/.test(new URL(text).protocol))
      throw new ConfigError([
        {
          code: 'invalid_value',
          source: { kind: 'flag', flag: 'URL' },
          path: [],
          expected: 'an http or https URL, e.g. http://127.0.0.1:8080/json',
          actual: JSON.stringify(text),
        },
      ]);
    const url = new URL(text);
    const target = { origin: url.origin, path: `${url.pathname}${url.search}` };
    const [{ starterScript, starterYaml }, fs, path] = await Promise.all([
      import('../init-templates.js'),
      import('node:fs'),
      import('node:path'),
    ]);
    const name = this.output ?? (this.ts ? 'load.ts' : 'load.yaml');
    const file = path.resolve(this.context.cwd, name);
    try {
      // 'wx': created, or refused when anything is there already.
      fs.writeFileSync(file, this.ts ? starterScript(target) : starterYaml(target), { flag: 'wx' });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const why = code === 'EEXIST' ? 'it exists; barrage init never overwrites a file' : code;
      this.context.stderr.write(`barrage: init: cannot write ${name}: ${why}\n`);
      return ExitCode.Failed;
    }
    const check = this.ts ? `validate ${name} --target ${url.origin}` : `validate ${name}`;
    const runIt = this.ts ? `run ${name} --target ${url.origin}` : `run ${name}`;
    this.context.stdout.write(
      `wrote ${name}\nnext: barrage ${check}   (check it, nothing is sent)\n      barrage ${runIt}\n`,
    );
    return ExitCode.Ok;
  }
}
