/**
 * gRPC endpoints through the spawned CLI (issue 50, docs/grpc.md) against the shop of
 * test/helpers/grpc-shop.ts: h2c and TLS, unary (NOT_FOUND failed unless expected), the three
 * stream kinds, extractors over the decoded message, and a validate refusal before anything is
 * sent. barrage's counts are held to the server's own.
 */
import t, { type Test } from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../helpers/run-cli.js';
import { runInProcess } from '../helpers/in-process-cli.js';
import { SHOP_PROTO, startShop, type Shop } from '../helpers/grpc-shop.js';
import { makePki, opensslSkip } from '../helpers/openssl-pki.js';

interface JsonResult {
  readonly total: number;
  readonly failures: number;
  readonly errors: Record<string, number>;
  readonly grpc?: {
    readonly reqs: number;
    readonly streams_msgs_sent?: number;
    readonly streams_msgs_received?: number;
    readonly req_duration_ms?: { readonly p50: number };
  };
  readonly thresholds: {
    readonly results: readonly { threshold: string; actual: number | null; pass: boolean }[];
  };
  readonly endpoints: readonly {
    readonly name: string;
    readonly requests: number;
    readonly failures: number;
  }[];
}

/**
 * A folder with the shop proto and `config`, run with --json-output: by the spawned CLI with
 * `flags`, else in process (cheaper).
 */
async function runGrpc(
  t: Test,
  config: string,
  extra: Record<string, string> = {},
  flags?: readonly string[],
) {
  const dir = t.testdir({
    'shop.proto': readFileSync(SHOP_PROTO, 'utf8'),
    'run.yaml': config,
    ...extra,
  });
  const argv = ['run', 'run.yaml', '--json-output', ...(flags ?? [])];
  const result =
    flags === undefined
      ? await runInProcess(argv, { cwd: dir })
      : await runCli(argv, { cwd: dir, killAfterMs: 60_000 });
  t.notMatch(result.stderr, /\n\s+at /, 'no stack trace');
  return { result, dir };
}

function shopFor(t: Test, tls?: { key: Buffer; cert: Buffer }): Promise<Shop> {
  return startShop(tls).then((shop) => {
    t.teardown(() => shop.close());
    return shop;
  });
}

t.test(
  'h2c: unary, NOT_FOUND counted failed, the three stream kinds, counts equal the server',
  async (t) => {
    const shop = await shopFor(t);
    const url = `grpc://127.0.0.1:${shop.port}`;
    const { result, dir } = await runGrpc(
      t,
      `requests: 20
concurrency: 2
endpoints:
  - name: get
    url: ${url}
    grpc: { proto: ./shop.proto, method: shop.Catalog/GetProduct, message: { id: "{{$randomInt 1 5}}" }, metadata: { x-user: alice } }
  - name: list
    url: ${url}
    grpc: { proto: ./shop.proto, method: shop.Catalog/ListProducts, message: { limit: 3 } }
  - name: add
    url: ${url}
    grpc: { proto: ./shop.proto, method: shop.Catalog/AddProducts, messages: [{ id: 1 }, { id: 2, name: "Zwölf €" }] }
  - name: chat
    url: ${url}
    grpc: { proto: ./shop.proto, method: shop.Catalog/Chat, messages: [{ text: a }, { text: b }, { text: c }] }
thresholds:
  - 'grpc_reqs{method=shop.Catalog/GetProduct}:count > 0'
  - 'grpc_req_duration{method=shop.Catalog/ListProducts}:max < 60000'
  - 'grpc_streams_msgs_received{endpoint=chat}:count > 0'
`,
      {},
      ['--html', 'report.html'],
    );
    const json = JSON.parse(result.stdout) as JsonResult;
    const c = shop.counts;
    t.equal(json.total, 20, 'the plan: 20 calls');
    t.equal(c.get + c.lists + c.adds + c.chats, 20, 'the server saw 20 calls');
    t.equal(json.grpc?.reqs, 20);
    const by = new Map(json.endpoints.map((e) => [e.name, e]));
    t.equal(by.get('get')?.requests, c.get);
    t.equal(by.get('list')?.requests, c.lists);
    t.equal(by.get('add')?.requests, c.adds);
    t.equal(by.get('chat')?.requests, c.chats);
    t.equal(by.get('get')?.failures, c.notFound, 'each NOT_FOUND is a failure');
    t.equal(json.failures, c.notFound);
    t.equal(json.errors.grpc_status ?? 0, c.notFound);
    t.equal(json.grpc?.streams_msgs_sent, c.added + c.notes, 'messages written = the server read');
    t.equal(
      json.grpc?.streams_msgs_received,
      c.listed + c.notes,
      'messages received = the server wrote',
    );
    t.ok(c.users.every((u) => u === 'alice') && c.users.length === c.get, 'metadata sent');
    const actual = json.thresholds.results.map((r) => r.actual);
    t.equal(actual[0], c.get, 'a threshold on a method reads its calls');
    t.equal(actual[2], c.notes, 'chat received an echo of each note');
    t.ok(json.thresholds.results.every((r) => r.pass));
    t.equal(result.code, 0, 'failed calls alone do not fail a run whose thresholds pass');
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    t.match(html, /<section id="grpc">\n<h2>gRPC<\/h2>/, 'the HTML report has a gRPC section');
  },
);

t.test(
  'expect.grpc_status: NOT_FOUND expected is a success; an extractor reads the message',
  async (t) => {
    const shop = await shopFor(t);
    const url = `grpc://127.0.0.1:${shop.port}`;
    const { result } = await runGrpc(
      t,
      `requests: 2
concurrency: 1
endpoints:
  - name: missing
    url: ${url}
    grpc: { proto: ./shop.proto, method: shop.Catalog/GetProduct, message: { id: 99 } }
    expect: { grpc_status: [OK, NOT_FOUND] }
  - name: last
    url: ${url}
    grpc: { proto: ./shop.proto, method: shop.Catalog/ListProducts, message: { limit: 2 } }
    extract: { name: $.name }
  - name: get
    url: ${url}
    grpc: { proto: ./shop.proto, method: shop.Catalog/GetProduct, message: { id: 1 }, metadata: { x-user: "{{name}}" } }
flows:
  - { name: f, steps: [missing, last, get] }
`,
    );
    const json = JSON.parse(result.stdout) as JsonResult;
    t.equal(json.total, 6, 'two flows of three calls');
    t.equal(json.failures, 0, 'NOT_FOUND was expected');
    t.equal(shop.counts.notFound, 2);
    t.strictSame(shop.counts.users, ['Bellows', 'Bellows'], "the stream's last message, extracted");
  },
);

// By a host name: Node 26 refuses an IP address as the TLS server name gRPC sends (docs/grpc.md).
t.test('grpcs: TLS with the run’s CA', { skip: opensslSkip(process.env) }, async (t) => {
  const pki = t.testdir({});
  makePki(pki);
  const shop = await shopFor(t, {
    key: readFileSync(join(pki, 'server.key')),
    cert: readFileSync(join(pki, 'server.pem')),
  });
  const { result } = await runGrpc(
    t,
    `requests: 4
concurrency: 2
tls: { ca: ./ca.pem }
endpoints:
  - url: grpcs://localhost:${shop.port}
    grpc: { proto: ./shop.proto, method: shop.Catalog/GetProduct, message: { id: 2 } }
`,
    { 'ca.pem': readFileSync(join(pki, 'ca.pem'), 'utf8') },
  );
  const json = JSON.parse(result.stdout) as JsonResult;
  t.equal(json.total, 4);
  t.equal(json.failures, 0, JSON.stringify(json.errors));
  t.equal(shop.counts.found, 4);
});

t.test(
  'validate refuses an unknown method and field, naming file and key; nothing sent',
  async (t) => {
    const shop = await shopFor(t);
    const dir = t.testdir({
      'shop.proto': readFileSync(SHOP_PROTO, 'utf8'),
      'run.yaml': `requests: 1
endpoints:
  - url: grpc://127.0.0.1:${shop.port}
    grpc: { proto: ./shop.proto, method: shop.Catalog/GetProdukt, message: { id: 1 } }
  - url: grpc://127.0.0.1:${shop.port}
    grpc: { proto: ./shop.proto, method: shop.Catalog/ListProducts, message: { limt: 1 } }
  - url: grpc://127.0.0.1:${shop.port}
    grpc: { proto: ./shop.proto, method: shop.Catalog/AddProducts, messages: [{ id: 1 }, { price: { cent: 1 } }] }
  - url: grpc://127.0.0.1:${shop.port}
    grpc: { proto: ../outside.proto, method: shop.Catalog/Chat }
`,
    });
    {
      const result = await runInProcess(['validate', 'run.yaml'], { cwd: dir });
      t.equal(result.code, 1, 'validate exits 1');
      t.notMatch(result.stderr, /\n\s+at /, 'no stack trace');
      t.match(
        result.stderr,
        /run\.yaml:4:\d+: endpoints\[0\]\.grpc\.method: expected a method of shop\.Catalog: .*did you mean GetProduct/,
      );
      t.match(
        result.stderr,
        /endpoints\[1\]\.grpc\.message\.limt: expected a field of ListRequest: limit/,
      );
      t.match(
        result.stderr,
        /run\.yaml:8:\d+: endpoints\[2\]\.grpc\.messages\[1\]\.price\.cent: expected a field of Price: cents, currency \(did you mean cents\?\), got "cent"/,
      );
      t.match(
        result.stderr,
        /endpoints\[3\]\.grpc\.proto: expected a file inside the configuration's folder/,
      );
    }
    t.equal(shop.counts.get + shop.counts.lists + shop.counts.chats, 0, 'nothing was sent');
  },
);

t.test("the shape's rules: a gRPC endpoint's keys, and grpc keys on other urls", async (t) => {
  const validate = (yaml: string) =>
    runInProcess(['validate', 'run.yaml'], {
      cwd: t.testdir({ 'shop.proto': readFileSync(SHOP_PROTO, 'utf8'), 'run.yaml': yaml }),
    });
  const rules = await validate(`requests: 1
endpoints:
  - url: grpc://127.0.0.1:1/shop
    headers: { x-a: b }
    expect: { status: 200 }
  - url: http://127.0.0.1:1/
    grpc: { proto: ./shop.proto, method: shop.Catalog/GetProduct }
`);
  t.equal(rules.code, 1);
  for (const line of [
    /run\.yaml:3:\d+: endpoints\[0\]\.url: expected grpc:\/\/host:port or grpcs:\/\/host:port/,
    /endpoints\[0\]\.headers: expected a gRPC endpoint's keys .*, not headers/,
    /endpoints\[0\]\.expect\.status: expected expect\.grpc_status on a gRPC endpoint/,
    /endpoints\[0\]\.grpc: expected grpc: \{ proto, method, message \}/,
    /endpoints\[1\]\.grpc: expected grpc only on grpc:\/\/ or grpcs:\/\/ endpoints/,
  ])
    t.match(rules.stderr, line);
  const codes = await validate(`requests: 1
endpoints:
  - url: grpc://127.0.0.1:1
    grpc: { proto: ./shop.proto, method: shop.Catalog/GetProduct }
    expect: { grpc_status: NOPE }
`);
  t.match(
    codes.stderr,
    /endpoints\[0\]\.expect\.grpc_status: expected gRPC status codes: names \(OK, /,
  );
  const kind = await validate(`requests: 1
endpoints:
  - url: grpc://127.0.0.1:1
    grpc: { proto: ./shop.proto, method: shop.Catalog/Chat, message: { text: a } }
`);
  t.match(
    kind.stderr,
    /endpoints\[0\]\.grpc\.message: expected messages: \[\.\.\.\] \(shop\.Catalog\/Chat takes a stream of requests\)/,
  );
});
