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
      replay them: method, url, headers and body. By default (--as flow) one flow replays them in
      recorded order with the user's pauses, and values the server gave (CSRF tokens, order ids)
      are read from each response and sent back where the browser sent them (--no-correlate
      sends the recorded ones). --as endpoints writes a weighted mix instead: identical requests
      become one endpoint whose weight is how many times it was recorded. Without a host
      criterion only the recorded page's host is kept, so a replay never loads third-party
      servers by accident. Cookies, Authorization and token-like headers, query parameters and
      body fields are dropped unless --keep-secrets; passwords come from {{$env NAME}}. The YAML
      goes to stdout (or -o FILE); the summary of what was kept and skipped goes to stderr.

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
      ['The recorded mix, weighted', '$0 har session.har --as endpoints -o mix.yaml'],
      ['Pauses at half the recorded length', '$0 har session.har --think-scale 0.5'],
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
  as = Option.String('--as', {
    description: 'flow (default: the session in recorded order) or endpoints (a weighted mix)',
  });
  asFlow = Option.Boolean('--as-flow', false, {
    description: 'The same as --as flow (the default)',
  });
  correlate = Option.Boolean('--correlate', true, {
    description:
      'Read values the server gave from its responses (--no-correlate: send the recorded ones)',
  });
  thinkScale = Option.String('--think-scale', {
    description: 'Multiply the recorded pauses of the flow (default 1; 0: none)',
  });
  target = Option.String('--target', {
    description: "Base URL to replay against (default: the recorded page's origin)",
  });

  /** Imports, writes the YAML, prints the summary. */
  async run(): Promise<number> {
    const issues: ConfigIssue[] = [];
    const asFlow = this.as !== 'endpoints';
    const thinkScale = this.thinkScale === undefined ? 1 : Number(this.thinkScale);
    issues.push(...this.#shapeIssues(thinkScale));
    const [
      { importHarResponsive },
      { renderHarSummary },
      { writeReportFiles },
      { MAX_CONFIG_BYTES },
      { formatBytes },
    ] = await Promise.all([
      import('../../dsl/har/har-import-thread.js'),
      import('../render/har-summary.js'),
      import('../report-files.js'),
      import('../../dsl/sources/file-source.js'),
      import('../../dsl/sources/bounded-file.js'),
    ]);
    // A large recording off the main thread: it takes seconds, and Ctrl+C must end it at once.
    const { imported, yaml: endpointsYaml } = await importHarResponsive({
      yaml: true,
      inputs: {
        cwd: this.context.cwd,
        file: this.file,
        filters: this.filters ?? [],
        target: this.target,
        keepSecrets: this.keepSecrets,
        asFlow,
        correlate: this.correlate,
        thinkScale,
        takenNames: [],
      },
    });
    if (!imported.ok) issues.push(...imported.error);
    if (!imported.ok || issues.length > 0) throw new ConfigError(issues);
    const yaml = this.#yaml(imported.value, endpointsYaml ?? '');
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

  /** Problems of the flags: --as, --as-flow, --think-scale, --target. */
  #shapeIssues(thinkScale: number): ConfigIssue[] {
    const issues: ConfigIssue[] = [];
    if (this.as !== undefined && !['flow', 'endpoints'].includes(this.as))
      issues.push({
        code: 'invalid_value',
        source: { kind: 'flag', flag: '--as' },
        path: [],
        expected: 'flow or endpoints',
        actual: JSON.stringify(this.as),
      });
    if (this.asFlow && this.as === 'endpoints')
      issues.push({
        code: 'invalid_value',
        source: { kind: 'flag', flag: '--as-flow' },
        path: [],
        expected: 'either --as-flow or --as endpoints',
        actual: 'both',
      });
    if (!/^\d+(?:\.\d+)?$/.test(this.thinkScale ?? '1') || thinkScale > 100)
      issues.push({
        code: 'invalid_value',
        source: { kind: 'flag', flag: '--think-scale' },
        path: [],
        expected: 'a number from 0 to 100 (1: the recorded pauses; 0: none)',
        actual: JSON.stringify(this.thinkScale),
      });
    if (this.target !== undefined && !isHttpUrl(this.target))
      issues.push({
        code: 'invalid_value',
        source: { kind: 'flag', flag: '--target' },
        path: ['target'],
        expected: 'an absolute http or https URL (base URL of the requests)',
        actual: JSON.stringify(this.target),
      });
    return issues;
  }

  /** The configuration as YAML, headed by a comment saying where it came from. */
  #yaml(converted: HarEndpoints, endpoints: string): string {
    const { summary } = converted;
    const filters = (this.filters ?? []).map((f) => ` --har-filter '${oneLine(f)}'`).join('');
    const flags = [
      filters,
      this.as === undefined ? '' : ` --as ${oneLine(this.as)}`,
      this.correlate ? '' : ' --no-correlate',
      this.thinkScale === undefined ? '' : ` --think-scale ${oneLine(this.thinkScale)}`,
      this.keepSecrets ? ' --keep-secrets' : '',
    ].join('');
    const secrets =
      summary.secrets.length === 0
        ? ''
        : summary.secretsKept
          ? '\n# It holds the recorded secrets (--keep-secrets): do not commit or share it.'
          : '\n# Secrets (cookies, Authorization, tokens) were dropped: add auth or headers to replay a login.';
    const shape =
      summary.flowSteps === undefined
        ? 'a weight is how many times a request was recorded.'
        : `the flow "recording" replays them in recorded order.`;
    const head =
      `# Generated by: barrage har ${oneLine(this.file)}${flags}\n` +
      `# ${summary.kept} of ${summary.entries} recorded entries as ${summary.endpoints} endpoints; ${shape}` +
      secrets +
      correlationNote(summary) +
      '\n';
    return head + endpoints;
  }
}

/** What correlation found, and the environment variables to set, as comment lines. */
function correlationNote(summary: HarEndpoints['summary']): string {
  const correlated = summary.dynamic.filter((d) => d.correlated);
  const lines: string[] = [];
  if (summary.dynamic.length > 0)
    lines.push(
      `# ${correlated.length} of ${summary.dynamic.length} values the server gave are read from its responses (extract) and sent back as {{name}}: ${correlated.map((d) => d.name).join(', ') || 'none'}.`,
    );
  const others = summary.dynamic.filter((d) => !d.correlated);
  if (others.length > 0)
    lines.push(
      `# Not correlated (no extractor reads them; the cookie jar sends cookies back): ${others.map((d) => d.where).join(', ')}.`,
    );
  if (summary.credentials.length > 0)
    lines.push(
      `# Credentials come from the environment: set ${summary.credentials.join(', ')} before running it.`,
    );
  return lines.map((line) => `\n${oneLine(line)}`).join('');
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
