/** `barrage har`: a recorded browser session (HAR) → a ready-to-run configuration file. */
import { Command, Option } from 'clipanion';
import type { HarEndpoints } from '../../dsl/har/har-to-endpoints.js';
import { ConfigError, type ConfigIssue } from '../../dsl/issues.js';
import { ExitCode } from '../exit-code.js';
import { BaseCommand } from './base-command.js';

/** Converts a HAR file into endpoints. */
export class HarCommand extends BaseCommand {
  static override paths = [['har']];

  static override usage = Command.Usage({
    description: 'Turn a recorded browser session (HAR) into a configuration',
    details: `
      Reads a HAR file (as Chrome, Firefox or a proxy exports it; docs/har.md gives its size limit),
      keeps the entries that match every --har-filter, and writes a configuration whose endpoints
      replay them: method, url, headers and body. Identical requests become one endpoint whose
      weight is how many times it was recorded. Without a host criterion only the recorded page's
      host is kept, so a replay never loads third-party servers by accident. Cookies,
      Authorization and token-like headers, query parameters and body fields are dropped unless
      --keep-secrets. The YAML goes to stdout (or -o FILE); the summary of what was kept and
      skipped goes to stderr.

      Filter criteria: host:, method:, type: (response media type), status:, path: with * globs
      and a|b alternatives, "static" (images, fonts, CSS, JavaScript), each negated with a
      leading "!". All criteria must match.
    `,
    examples: [
      [
        'The API calls of a session, as a config',
        "$0 har session.har --har-filter '!static' -o load.yaml",
      ],
      [
        'Only writes to the API',
        "$0 har session.har --har-filter 'path:/api/* method:POST|PUT|DELETE'",
      ],
      [
        'Keep a second host',
        "$0 har session.har --har-filter 'host:shop.example.com|api.example.com'",
      ],
      ['Replay in recorded order', '$0 har session.har --as-flow -o flow.yaml'],
    ],
  });

  file = Option.String({ name: 'FILE' });
  filters = Option.Array('--har-filter', {
    description: "Keep only matching entries, e.g. '!static method:GET|POST' (repeatable)",
  });
  output = Option.String('-o,--output', { description: 'Write the YAML to this file' });
  keepSecrets = Option.Boolean('--keep-secrets', false, {
    description: 'Keep cookies, Authorization and token-like fields (do not share the output)',
  });
  asFlow = Option.Boolean('--as-flow', false, {
    description: 'Also write a flow that replays the kept requests in recorded order',
  });
  target = Option.String('--target', {
    description: "Base URL to replay against (default: the recorded page's origin)",
  });

  /** Imports, writes the YAML, prints the summary. */
  async run(): Promise<number> {
    const issues: ConfigIssue[] = [];
    if (this.target !== undefined && !isHttpUrl(this.target))
      issues.push({
        code: 'invalid_value',
        source: { kind: 'flag', flag: '--target' },
        path: ['target'],
        expected: 'an absolute http or https URL (base URL of the requests)',
        actual: JSON.stringify(this.target),
      });
    const [
      { importHar },
      { harConfigYaml },
      { renderHarSummary },
      { writeReportFiles },
      { MAX_CONFIG_BYTES },
      { formatBytes },
    ] = await Promise.all([
      import('../../dsl/har/har-import.js'),
      import('../../dsl/har/har-config.js'),
      import('../render/har-summary.js'),
      import('../report-files.js'),
      import('../../dsl/sources/file-source.js'),
      import('../../dsl/sources/bounded-file.js'),
    ]);
    const imported = importHar({
      cwd: this.context.cwd,
      file: this.file,
      filters: this.filters ?? [],
      target: this.target,
      keepSecrets: this.keepSecrets,
      asFlow: this.asFlow,
      takenNames: [],
    });
    if (!imported.ok) issues.push(...imported.error);
    if (!imported.ok || issues.length > 0) throw new ConfigError(issues);
    const yaml = this.#yaml(imported.value, harConfigYaml);
    const size = Buffer.byteLength(yaml);
    if (size > MAX_CONFIG_BYTES)
      throw new ConfigError([
        {
          code: 'file_too_large',
          source: { kind: 'har', file: this.file },
          path: [],
          expected: `a configuration of at most ${formatBytes(MAX_CONFIG_BYTES)} (the limit barrage reads)`,
          actual: `${formatBytes(size)} of endpoints`,
          hint: "keep fewer entries with --har-filter (e.g. '!static', 'path:/api/*')",
        },
      ]);
    this.context.stderr.write(renderHarSummary(imported.value.summary));
    if (this.output === undefined) {
      this.context.stdout.write(yaml);
      return ExitCode.Ok;
    }
    const failures = writeReportFiles(this.context.cwd, [
      { what: 'configuration', path: this.output, render: () => yaml },
    ]);
    for (const failure of failures) this.context.stderr.write(`barrage: ${failure}\n`);
    if (failures.length === 0)
      this.context.stderr.write(`wrote ${this.output}; run it with: barrage run ${this.output}\n`);
    return failures.length === 0 ? ExitCode.Ok : ExitCode.Failed;
  }

  /** The configuration as YAML, headed by a comment saying where it came from. */
  #yaml(converted: HarEndpoints, toYaml: (converted: HarEndpoints) => string): string {
    const { summary } = converted;
    const filters = (this.filters ?? []).map((f) => ` --har-filter '${oneLine(f)}'`).join('');
    const flags = `${filters}${this.asFlow ? ' --as-flow' : ''}${this.keepSecrets ? ' --keep-secrets' : ''}`;
    const secrets =
      summary.secrets.length === 0
        ? ''
        : summary.secretsKept
          ? '\n# It holds the recorded secrets (--keep-secrets): do not commit or share it.'
          : '\n# Secrets (cookies, Authorization, tokens) were dropped: add auth or headers to replay a login.';
    const head =
      `# Generated by: barrage har ${oneLine(this.file)}${flags}\n` +
      `# ${summary.kept} of ${summary.entries} recorded entries as ${summary.endpoints} endpoints; a weight is how many times a request was recorded.` +
      secrets +
      '\n';
    return head + toYaml(converted);
  }
}

/** Text fit for a one-line YAML comment. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ');
}

function isHttpUrl(text: string): boolean {
  try {
    return /^https?:$/.test(new URL(text).protocol);
  } catch {
    return false;
  }
}
