import t from 'tap';
import type { ThresholdSpec } from '../../model/plan/threshold-spec.js';
import { parseThreshold } from '../../dsl/grammar/threshold.js';
import { AGGREGATES, BUILTIN_METRICS } from '../../model/metrics/metric-registry.js';

type Parts = Omit<ThresholdSpec, 'expression'>;

const VALID: readonly (readonly [string, Parts])[] = [
  [
    'http_req_duration:p95 < 300',
    {
      metric: 'http_req_duration',
      tags: {},
      aggregate: 'p95',
      percentile: 95,
      operator: '<',
      expected: 300,
    },
  ],
  [
    'http_req_failed:rate<0.01',
    { metric: 'http_req_failed', tags: {}, aggregate: 'rate', operator: '<', expected: 0.01 },
  ],
  [
    '  http_req_duration{endpoint=login}:p99.9 <= 250  ',
    {
      metric: 'http_req_duration',
      tags: { endpoint: 'login' },
      aggregate: 'p99.9',
      percentile: 99.9,
      operator: '<=',
      expected: 250,
    },
  ],
  [
    'http_req_duration{endpoint=GET /a b:c}:avg>=1e3',
    {
      metric: 'http_req_duration',
      tags: { endpoint: 'GET /a b:c' },
      aggregate: 'avg',
      operator: '>=',
      expected: 1000,
    },
  ],
  [
    'checks{check=cart has item}:rate > 0.99',
    {
      metric: 'checks',
      tags: { check: 'cart has item' },
      aggregate: 'rate',
      operator: '>',
      expected: 0.99,
    },
  ],
  [
    'ws_message_rtt:p100\t>\t-1.5E-2',
    {
      metric: 'ws_message_rtt',
      tags: {},
      aggregate: 'p100',
      percentile: 100,
      operator: '>',
      expected: -0.015,
    },
  ],
  [
    'ws_connecting:p0.1 == 0',
    {
      metric: 'ws_connecting',
      tags: {},
      aggregate: 'p0.1',
      percentile: 0.1,
      operator: '==',
      expected: 0,
    },
  ],
  [
    'ws_session_duration:max < 60000',
    { metric: 'ws_session_duration', tags: {}, aggregate: 'max', operator: '<', expected: 60000 },
  ],
  [
    'http_requests:count >= 1000',
    { metric: 'http_requests', tags: {}, aggregate: 'count', operator: '>=', expected: 1000 },
  ],
  [
    'ws_msgs_sent{endpoint=feed}:rate > 10',
    {
      metric: 'ws_msgs_sent',
      tags: { endpoint: 'feed' },
      aggregate: 'rate',
      operator: '>',
      expected: 10,
    },
  ],
  [
    'ws_msgs_received:count>0',
    { metric: 'ws_msgs_received', tags: {}, aggregate: 'count', operator: '>', expected: 0 },
  ],
  [
    'checks:rate > 0.99',
    { metric: 'checks', tags: {}, aggregate: 'rate', operator: '>', expected: 0.99 },
  ],
  [
    'http_req_duration{endpoint=login,status=200,team=web}:p95 < 300',
    {
      metric: 'http_req_duration',
      tags: { endpoint: 'login', status: '200', team: 'web' },
      aggregate: 'p95',
      percentile: 95,
      operator: '<',
      expected: 300,
    },
  ],
  [
    'checks{check="cart, total = 3 }",scenario=buy}:rate > 0.9',
    {
      metric: 'checks',
      tags: { check: 'cart, total = 3 }', scenario: 'buy' },
      aggregate: 'rate',
      operator: '>',
      expected: 0.9,
    },
  ],
  [
    'http_req_failed{endpoint="say \\"hi\\" \\\\ bye"}:rate < 0.1',
    {
      metric: 'http_req_failed',
      tags: { endpoint: 'say "hi" \\ bye' },
      aggregate: 'rate',
      operator: '<',
      expected: 0.1,
    },
  ],
];

t.test('valid expressions parse to their parts', (t) => {
  for (const [expression, parts] of VALID) {
    t.same(parseThreshold(expression), { ok: true, value: { expression, ...parts } }, expression);
  }
  t.end();
});

t.test('k6 spellings read as barrage spellings, shown normalized', (t) => {
  const cases: readonly (readonly [string, string, string, number | undefined])[] = [
    ['http_req_duration:p(95) < 300', 'http_req_duration:p95 < 300', 'p95', 95],
    ['http_req_duration:p(99.9)<=250', 'http_req_duration:p99.9<=250', 'p99.9', 99.9],
    [
      '  http_req_duration{endpoint=a}:med < 5 ',
      '  http_req_duration{endpoint=a}:p50 < 5 ',
      'p50',
      50,
    ],
  ];
  for (const [written, expression, aggregate, percentile] of cases) {
    const result = parseThreshold(written);
    if (!result.ok) {
      t.fail(result.error.message);
      continue;
    }
    t.equal(result.value.expression, expression, written);
    t.equal(result.value.aggregate, aggregate, `${written}: aggregate`);
    t.equal(result.value.percentile, percentile, `${written}: percentile`);
    t.equal(result.value.aliases?.length, 1, `${written}: one alias noted`);
  }
  const own = parseThreshold('http_reqs:count > 1');
  t.ok(
    own.ok && own.value.metric === 'http_reqs' && !('aliases' in own.value),
    "http_reqs is a metric of its own (k6's meaning: HTTP requests only), not an alias",
  );
  const none = parseThreshold('http_req_duration:p95 < 1');
  t.ok(none.ok && !('aliases' in none.value), 'barrage spellings carry no aliases');
  t.end();
});

t.test('named aggregates without a percentile carry no percentile field', (t) => {
  const result = parseThreshold('http_req_duration:mean < 1');
  t.ok(result.ok && !('percentile' in result.value));
  t.end();
});

/** expression, failing part, a fragment of the message, the allowed list or its first entry, the guess. */
interface Invalid {
  readonly expression: string;
  readonly part: string;
  readonly fragment: string;
  readonly allowed?: string;
  readonly guess?: string;
}

const INVALID: readonly Invalid[] = [
  {
    expression: '',
    part: 'metric',
    fragment: 'a metric name is required',
    allowed: 'http_req_duration',
  },
  {
    expression: 'http_req_durration:p95 < 300',
    part: 'metric',
    fragment: 'unknown metric "http_req_durration"',
    allowed: 'http_req_duration',
    guess: 'http_req_duration',
  },
  {
    expression: 'HTTP_REQ_FAILED:rate < 1',
    part: 'metric',
    fragment: 'unknown metric',
    guess: 'http_req_failed',
  },
  {
    expression: 'latency:p95 < 300',
    part: 'metric',
    fragment: 'unknown metric "latency"',
    allowed: 'http_req_duration',
  },
  { expression: 'constructor:p95 < 300', part: 'metric', fragment: 'unknown metric "constructor"' },
  {
    expression: 'http_req_durationp95 < 300',
    part: 'metric',
    fragment: 'a ":" is missing after "http_req_duration"',
  },
  {
    expression: 'http_req_duration < 300',
    part: 'aggregate',
    fragment: 'a ":" and an aggregate must follow "http_req_duration" with no space',
  },
  {
    expression: 'http_req_duration',
    part: 'aggregate',
    fragment: 'a ":" and an aggregate must follow',
  },
  {
    expression: 'http_req_duration{endpoint=a}p95<1',
    part: 'aggregate',
    fragment: 'must follow "http_req_duration{endpoint=a}", found "p"',
  },
  {
    expression: 'http_req_duration:',
    part: 'aggregate',
    fragment: 'an aggregate is required after "http_req_duration:"',
    allowed: 'p50',
  },
  {
    expression: 'http_req_duration: p95 < 1',
    part: 'aggregate',
    fragment: 'no space is allowed after ":"',
  },
  {
    expression: 'http_req_failed:p95 < 0.01',
    part: 'aggregate',
    fragment: 'the aggregate "p95" is not supported by http_req_failed',
    allowed: 'rate',
  },
  {
    expression: 'http_req_duration:rate < 1',
    part: 'aggregate',
    fragment: 'not supported by http_req_duration',
    allowed: 'p50',
  },
  { expression: 'http_req_duration:avgg < 1', part: 'aggregate', fragment: '"avgg"', guess: 'avg' },
  {
    expression: 'checks:rates > 0.9',
    part: 'aggregate',
    fragment: 'not supported by checks',
    allowed: 'rate',
    guess: 'rate',
  },
  {
    expression: 'http_req_duration:p0 < 1',
    part: 'aggregate',
    fragment: 'the percentile in "p0" must be above 0 and at most 100',
  },
  {
    expression: 'http_req_duration:p101 < 1',
    part: 'aggregate',
    fragment: 'the percentile in "p101"',
  },
  { expression: 'http_req_duration:p < 1', part: 'aggregate', fragment: 'not supported' },
  {
    expression: 'http_req_duration:p95 = 300',
    part: 'operator',
    fragment: 'unknown operator "="',
    allowed: '<',
    guess: '==',
  },
  {
    expression: 'http_req_duration:p95 != 300',
    part: 'operator',
    fragment: '"not equal" is not supported',
    allowed: '<',
  },
  {
    expression: 'http_req_duration:p95 => 300',
    part: 'operator',
    fragment: 'unknown operator "=>"',
    guess: '>=',
  },
  {
    expression: 'http_req_duration:p95 <> 300',
    part: 'operator',
    fragment: 'unknown operator "<>"',
  },
  {
    expression: 'http_req_duration:p95 300',
    part: 'operator',
    fragment: 'an operator is required after "http_req_duration:p95", found "3"',
  },
  {
    expression: 'http_req_duration:p95',
    part: 'operator',
    fragment: 'an operator is required',
    allowed: '<',
  },
  {
    expression: 'http_req_duration:p95 <',
    part: 'value',
    fragment: 'a number is required after the operator "<"',
  },
  { expression: 'http_req_duration:p95 <   ', part: 'value', fragment: 'a number is required' },
  {
    expression: 'http_req_duration:p95 < abc',
    part: 'value',
    fragment: 'the value "abc" is not a number',
  },
  {
    expression: 'http_req_duration:p95 < 300ms',
    part: 'value',
    fragment: 'write the number alone, without a unit',
  },
  { expression: 'http_req_duration:p95 < 1.', part: 'value', fragment: 'not a number' },
  { expression: 'http_req_duration:p95 < 0x10', part: 'value', fragment: 'not a number' },
  { expression: 'http_req_duration:p95 < 1e999', part: 'value', fragment: 'too large' },
  {
    expression: 'http_req_duration:p95 < 300 ms',
    part: 'trailing',
    fragment:
      'unexpected "ms" after the value "300"; write the number alone: the value is in milliseconds',
  },
  { expression: 'http_req_failed:rate < 1 %', part: 'trailing', fragment: 'a ratio from 0 to 1' },
  {
    expression: 'http_req_duration:p95 < 300 and more',
    part: 'trailing',
    fragment: 'unexpected "and more"',
  },
  {
    expression: 'http_req_duration{}:p95 < 1',
    part: 'tag',
    fragment: 'empty tag',
    allowed: 'endpoint',
  },
  { expression: 'http_req_duration{endpoint=a,}:p95 < 1', part: 'tag', fragment: 'empty tag' },
  {
    expression: 'http_req_duration{endpoint=}:p95 < 1',
    part: 'tag',
    fragment: 'the tag "endpoint" has an empty value',
  },
  { expression: 'http_req_duration{endpoint}:p95 < 1', part: 'tag', fragment: 'needs a value' },
  {
    expression: 'http_req_duration{endpoint=a=b}:p95 < 1',
    part: 'tag',
    fragment: 'cannot contain "="',
  },
  {
    expression: 'data_sent{host=x}:count > 9',
    part: 'tag',
    fragment: 'data_sent samples carry no "host" tag',
    allowed: 'scenario',
  },
  {
    expression: 'iterations{scenari=x}:count > 9',
    part: 'tag',
    fragment: 'iterations samples carry no "scenari" tag',
    guess: 'scenario',
  },
  {
    expression: 'http_req_duration{1st=x}:p95 < 1',
    part: 'tag',
    fragment: '"1st" is not a tag key',
  },
  {
    expression: 'http_req_duration{endpoint="a,b}:p95 < 1',
    part: 'tag',
    fragment: 'is never closed',
  },
  {
    expression: 'http_req_duration{endpoint = x}:p95 < 1',
    part: 'tag',
    fragment: 'spaces are not allowed',
    guess: 'endpoint',
  },
  {
    expression: 'http_req_duration{endpoint=a,endpoint=b}:p95 < 1',
    part: 'tag',
    fragment: 'appears twice',
  },
  {
    expression: 'http_req_duration{endpoint=login:p95 < 1',
    part: 'tag',
    fragment: '"{" is never closed',
  },
  {
    expression: 'checks{status=200}:rate > 0.9',
    part: 'tag',
    fragment: 'checks samples carry no "status" tag',
    allowed: 'check',
  },
  {
    expression: 'http_req_failed{check=a}:rate < 0.1',
    part: 'tag',
    fragment: 'http_req_failed samples carry no "check" tag',
    allowed: 'endpoint',
  },
  {
    expression: 'http_req_sending:p(95) < 200',
    part: 'metric',
    fragment: '"http_req_sending" is a k6 metric with no barrage equivalent: barrage times',
    allowed: 'http_req_duration',
  },
  {
    expression: 'vus{endpoint=a}:value > 1',
    part: 'tag',
    fragment: 'vus samples carry no "endpoint" tag',
  },
  {
    expression: 'vus_max:min > 1',
    part: 'aggregate',
    fragment: 'the aggregate "min" is not supported by vus_max',
    allowed: 'value',
  },
  {
    expression: 'http_req_waiting{status=200}:p95 < 1',
    part: 'tag',
    fragment: 'http_req_waiting samples carry no "status" tag',
  },
  {
    expression: 'iteration_duration{endpoint=a}:p95 < 1',
    part: 'tag',
    fragment: 'iteration_duration samples carry no "endpoint" tag',
  },
  { expression: 'group_duration:p95 < 1', part: 'metric', fragment: 'a group tags its requests' },
  {
    expression: 'data_received{endpoint=a}:count < 1',
    part: 'tag',
    fragment: 'carry no "endpoint"',
  },
  { expression: 'http_req_failed:p(95) < 1', part: 'aggregate', fragment: '"p(95)" is not' },
  { expression: 'http_req_duration:p(0) < 1', part: 'aggregate', fragment: '"p(0)" must be' },
];

t.test('invalid expressions name the part, quote the expression, list and guess', (t) => {
  for (const { expression, part, fragment, allowed, guess } of INVALID) {
    const result = parseThreshold(expression);
    if (result.ok) {
      t.fail(`${expression} should not parse`);
      continue;
    }
    const { error } = result;
    t.equal(error.part, part, `${expression}: part`);
    t.match(error.message, fragment, `${expression}: message`);
    t.match(
      error.message,
      `invalid threshold ${JSON.stringify(expression)}`,
      `${expression}: quotes it`,
    );
    if (allowed !== undefined) {
      t.ok(error.allowed?.includes(allowed), `${expression}: allowed lists ${allowed}`);
      t.match(error.message, 'Allowed: ', `${expression}: message lists allowed values`);
    }
    if (guess !== undefined)
      t.match(error.message, `did you mean "${guess}"?`, `${expression}: guess`);
    t.ok(
      error.position >= 0 && error.position <= expression.length,
      `${expression}: position in range`,
    );
  }
  t.end();
});

t.test('positions point at the failing part', (t) => {
  const cases: readonly (readonly [string, number])[] = [
    ['http_req_durration:p95 < 300', 0],
    ['  foo:p95 < 1', 2],
    ['http_req_duration:avgg < 1', 18],
    ['http_req_duration:p95 => 300', 22],
    ['http_req_duration:p95 < abc', 24],
    ['http_req_duration:p95 < 300 ms', 28],
    ['http_req_duration{endpoint=a,check=b}:p95 < 1', 29],
    ['http_req_duration{endpoint=login:p95 < 1', 17],
  ];
  for (const [expression, position] of cases) {
    const result = parseThreshold(expression);
    t.equal(result.ok ? -1 : result.error.position, position, expression);
  }
  t.end();
});

t.test('the metric registry is consistent', (t) => {
  for (const [name, info] of Object.entries(BUILTIN_METRICS)) {
    t.ok(AGGREGATES[info.kind].length > 0, `${name} has aggregates`);
    t.equal(
      info.unit,
      {
        // A trend is of ms, its result key `…_ms`; one of another unit (tokens/s) is `none`.
        trend: 'figure' in info && !info.figure.result.endsWith('_ms') ? 'none' : 'ms',
        rate: 'ratio',
        counter: info.unit === 'bytes' ? 'bytes' : 'count',
        gauge: info.unit,
      }[info.kind],
      `${name} unit fits its kind`,
    );
    t.ok(info.description.length > 0, `${name} is described`);
    t.ok(info.tags.includes('scenario'), `${name} samples carry the scenario tag`);
  }
  t.same(AGGREGATES.trend, ['p50', 'p90', 'p95', 'p99', 'avg', 'mean', 'min', 'max']);
  t.ok(Object.isFrozen(BUILTIN_METRICS));
  t.end();
});
