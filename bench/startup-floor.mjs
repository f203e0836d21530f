// The start-up floor of barrage's own stack, for the `startup` phase (bench/startup.mjs): what a
// program that does only the unavoidable part of a command costs, built the way barrage is (one
// esbuild bundle, Node's compile cache on). barrage's rows against these say how much of its start
// is its own.
// - `validate`: read the YAML with yaml, check it with a zod schema of the same keys.
// - `run`: that, then one GET with undici's Client and a line printed.
// - `libraries`: what `barrage run --target URL -n 1` needs of the libraries it is built on, each
//   used once and no more: clipanion parses the same arguments for a command with as many options
//   as `run`, zod checks them, tough-cookie makes the cookie jar every virtual user has by
//   default, undici sends the GET, hdr-histogram-js records its time, encodes, decodes and reads
//   four percentiles (as the raw result and the report do), and cli-table3 prints one table.
//   node dist-floor.mjs validate FILE   node dist-floor.mjs run FILE URL   node dist-floor.mjs libraries URL
import nodeModule from 'node:module';
import { performance } from 'node:perf_hooks';

nodeModule.enableCompileCache();
const [mode, ...rest] = process.argv.slice(2);
if (mode === 'libraries') await libraries(rest[0]);
else {
  const [file, url] = rest;
  const checked = await readConfig(file);
  if (mode === 'run') console.log(`1 request: ${(await send(url)).status}`);
  else console.log(`${checked.endpoints.length} endpoints`);
}

/** The configuration file, read with yaml and checked with zod. */
async function readConfig(file) {
  const [{ readFileSync }, YAML, z] = await Promise.all([
    import('node:fs'),
    import('yaml'),
    import('zod/v4'),
  ]);
  const endpoint = z.strictObject({
    name: z.string(),
    url: z.string(),
    weight: z.number().int().positive(),
    headers: z.record(z.string(), z.string()),
  });
  const config = z.strictObject({
    target: z.url(),
    concurrency: z.number().int().positive(),
    duration: z.string(),
    endpoints: z.array(endpoint).min(1),
    thresholds: z.array(z.string()),
  });
  return config.parse(YAML.parse(readFileSync(file, 'utf8')));
}

/**
 * One GET with undici's Client module by its own path and dispatch(), as barrage's workers use
 * them (the index would load undici's whole API); resolves { status, headers, ms }.
 */
async function send(url) {
  const { default: Client } = await import('undici/lib/dispatcher/client.js');
  const client = new Client(new URL(url).origin);
  const started = performance.now();
  const answer = await new Promise((resolve, reject) => {
    let status = 0;
    let headers = {};
    client.dispatch(
      { path: new URL(url).pathname, method: 'GET' },
      {
        onRequestStart() {},
        onResponseStart(_controller, statusCode, responseHeaders) {
          status = statusCode;
          headers = responseHeaders;
        },
        onResponseData() {},
        onResponseEnd: () => resolve({ status, headers, ms: performance.now() - started }),
        onResponseError: (_controller, error) => reject(error),
      },
    );
  });
  await client.close();
  return answer;
}

/** `barrage run --target URL -n 1`'s use of its libraries, and nothing of barrage's. */
async function libraries(url) {
  const [{ Cli, Command, Option }, z, { CookieJar }] = await Promise.all([
    import('clipanion'),
    import('zod/v4'),
    import('tough-cookie'),
  ]);
  // As many options as `run` declares (cli/commands/run.ts, plan-command.ts): a positional, 25
  // strings, 5 lists and 5 flags; clipanion builds its parser from all of them.
  class Run extends Command {
    static paths = [['run']];
    constructor() {
      super();
      this.config = Option.String({ required: false });
      this.target = Option.String('--target');
      this.requests = Option.String('-n,--requests');
      this.concurrency = Option.String('-c,--concurrency');
      for (let i = 3; i < 25; i++) this[`string${i}`] = Option.String(`--string-${i}`);
      for (let i = 0; i < 5; i++) this[`list${i}`] = Option.Array(`--list-${i}`);
      this.quiet = Option.Boolean('--quiet', false);
      for (let i = 1; i < 5; i++) this[`flag${i}`] = Option.Boolean(`--flag-${i}`, false);
    }
    async execute() {
      return 0;
    }
  }
  const cli = new Cli({ binaryName: 'floor', enableCapture: false, enableColors: false });
  cli.register(Run);
  const args = ['run', '--target', url, '-n', '1', '-c', '1', '--quiet'];
  const command = cli.process(args, {});
  const flags = z
    .strictObject({
      target: z.url(),
      requests: z.coerce.number().int().positive(),
      concurrency: z.coerce.number().int().positive(),
    })
    .parse({
      target: command.target,
      requests: command.requests,
      concurrency: command.concurrency,
    });
  const jar = new CookieJar();
  jar.getCookieStringSync(flags.target);
  const answer = await send(flags.target);
  if (answer.headers['set-cookie'] !== undefined)
    jar.setCookieSync(String(answer.headers['set-cookie']), flags.target);
  const [{ constructorFromBucketSize }, { decompress, doDecode }, Table] = await Promise.all([
    import('hdr-histogram-js/dist/JsHistogramFactory.js'),
    import('hdr-histogram-js/dist/JsHistogram.encoding.js'),
    import('cli-table3').then((m) => m.default),
  ]);
  const Histogram = constructorFromBucketSize(64);
  const histogram = new Histogram(1, 3_600_000_000, 3);
  histogram.autoResize = false;
  histogram.recordValue(Math.max(1, Math.round(answer.ms * 1000)));
  const encoded = histogram.encodeIntoCompressedBase64();
  const decoded = doDecode(decompress(Buffer.from(encoded, 'base64')), 64);
  const table = new Table({
    head: ['status', 'count', 'p50', 'p99'],
    style: { head: [], border: [], compact: true },
  });
  table.push([
    answer.status,
    1,
    decoded.getValueAtPercentile(50),
    decoded.getValueAtPercentile(99),
  ]);
  console.log(table.toString());
}
