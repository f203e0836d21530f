// The start-up floor of barrage's own stack, for the `startup` phase (bench/startup.mjs): what a
// program that does only the unavoidable part of a command costs, built the way barrage is (one
// esbuild bundle, Node's compile cache on). `validate`: read the YAML with yaml, check it with a
// zod schema of the same keys. `run`: that, then one GET with undici's Client and a line printed.
// barrage's rows against these say how much of its start is its own.
//   node dist-floor.mjs validate FILE      node dist-floor.mjs run FILE URL
import nodeModule from 'node:module';

nodeModule.enableCompileCache();
const [mode, file, url] = process.argv.slice(2);
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
const checked = config.parse(YAML.parse(readFileSync(file, 'utf8')));
if (mode === 'run') {
  // undici's Client module by its own path and dispatch(), as barrage's workers use them (the
  // index would load undici's whole API).
  const { default: Client } = await import('undici/lib/dispatcher/client.js');
  const client = new Client(new URL(url).origin);
  const status = await new Promise((resolve, reject) => {
    let code = 0;
    client.dispatch(
      { path: new URL(url).pathname, method: 'GET' },
      {
        onRequestStart() {},
        onResponseStart(_controller, statusCode) {
          code = statusCode;
        },
        onResponseData() {},
        onResponseEnd: () => resolve(code),
        onResponseError: (_controller, error) => reject(error),
      },
    );
  });
  await client.close();
  console.log(`1 request: ${status}`);
} else console.log(`${checked.endpoints.length} endpoints`);
