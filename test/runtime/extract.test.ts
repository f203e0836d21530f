import t from 'tap';
import { seededRandom } from '../../model/random.js';

const RANDOM = seededRandom(1);
import {
  firstJsonValue,
  headerValue,
  importJsonPath,
  queryJson,
  readsJsonPath,
  runExtractors,
} from '../../runtime/vars/extract.js';
import { VariableStore } from '../../runtime/vars/variable-store.js';
import type { ExtractorPlan } from '../../model/plan/endpoint-plan.js';
import { DEEP_ARRAYS, EXTRACT_ERROR, ODD_BODIES, ODD_PATHS } from '../helpers/odd-bodies.js';
import { jsonExtractor } from '../helpers/json-extractor.js';

t.test(
  'a plan reads JSONPath when a path is anywhere in it, or a scenario may pick one',
  async (t) => {
    t.equal(readsJsonPath({ endpoints: [{ extract: [{ from: 'header' }] }] }), false);
    t.equal(
      readsJsonPath({ graph: { endpoints: [{ extract: [jsonExtractor('v', '$.a')] }] } }),
      true,
    );
    t.equal(
      readsJsonPath({ ws: [{ steps: [{ match: { path: '$.x', evaluatorPath: '$.x' } }] }] }),
      true,
    );
    t.equal(readsJsonPath({ script: { file: 'scenario.ts' } }), true);
    t.equal(readsJsonPath({ records: new Uint8Array(4) }), false);
  },
);

await importJsonPath();

t.test('JSONPath extractors read the body; non-strings are stored as JSON', async (t) => {
  const vars = new VariableStore();
  const body = JSON.stringify({
    access_token: 'tok',
    items: [{ id: 3 }, { id: 4 }],
    meta: { n: 2 },
  });
  const kind = runExtractors(
    [
      jsonExtractor('token', '$.access_token'),
      jsonExtractor('first', '$.items[0].id'),
      jsonExtractor('all', '$.items'),
      jsonExtractor('none', '$.missing'),
    ],
    body,
    null,
    vars,
    RANDOM,
  );
  t.equal(kind, undefined);
  t.same(vars.entries(), { token: 'tok', first: '3', all: '[{"id":3},{"id":4}]' });
});

t.test('header extractors are case-insensitive; bad JSON extracts nothing', async (t) => {
  const vars = new VariableStore();
  const headers = [
    Buffer.from('X-Request-Id'),
    Buffer.from('r-1'),
    Buffer.from('Content-Type'),
    Buffer.from('text/plain'),
  ];
  t.equal(headerValue(headers, 'x-request-id'), 'r-1');
  t.equal(
    runExtractors(
      [{ variable: 'rid', from: 'header', header: 'x-request-id' }, jsonExtractor('j', '$.a')],
      '{not json',
      headers,
      vars,
      RANDOM,
    ),
    undefined,
  );
  t.same(vars.entries(), { rid: 'r-1' });
  t.equal(queryJson({ a: null }, '$.a'), undefined);
});

t.test('script segments never run (eval: false)', async (t) => {
  t.throws(() => queryJson({ a: [1] }, '$.a[?(@ > 0)]'), /Eval/);
});

t.test('a value the variable store refuses stops the extractors: variable_limit', async (t) => {
  const vars = new VariableStore();
  const body = JSON.stringify({ a: 'x'.repeat(600_000), b: 'y'.repeat(600_000), c: 'z' });
  const kind = runExtractors(
    [jsonExtractor('a', '$.a'), jsonExtractor('b', '$.b'), jsonExtractor('c', '$.c')],
    body,
    null,
    vars,
    RANDOM,
  );
  t.equal(kind, 'variable_limit');
  t.same(Object.keys(vars.entries()), ['a']);
});

t.test('every odd body at every path: a value, nothing, or extract_error', async (t) => {
  for (const body of ODD_BODIES) {
    for (const path of ODD_PATHS) {
      for (const form of ['json', 'header'] as const) {
        const vars = new VariableStore();
        vars.set('h', 'before');
        const extractor: ExtractorPlan =
          form === 'json'
            ? jsonExtractor('v', path)
            : { variable: 'h', from: 'header', header: 'x-id' };
        const kind = runExtractors(
          [extractor],
          body.bytes.toString('utf8'),
          [Buffer.from('X-Id'), Buffer.from('h-1')],
          vars,
          RANDOM,
        );
        const expected = body.expect[path];
        const label = `${body.name} at ${path} (${form})`;
        if (form === 'header') {
          t.equal(kind, undefined, label);
          t.equal(vars.get('h'), 'h-1', label);
        } else if (expected === EXTRACT_ERROR) {
          t.equal(kind, 'extract_error', label);
        } else {
          t.equal(kind, undefined, label);
          t.equal(vars.get('v'), expected, label);
        }
      }
    }
  }
});

t.test('a throw while reading the response is extract_error, never a throw', async (t) => {
  // Paths that validation refuses, run anyway: jsonpath-plus 11 throws on each of them.
  for (const path of ['$.@', '$..@', "$['@id']"]) {
    const vars = new VariableStore();
    t.equal(
      runExtractors(
        [{ variable: 'v', from: 'json', path, evaluatorPath: path }],
        '{"@id":1}',
        null,
        vars,
        RANDOM,
      ),
      'extract_error',
      path,
    );
  }
  const vars = new VariableStore();
  t.equal(
    runExtractors(
      [jsonExtractor('first', '$'), jsonExtractor('deep', '$..*')],
      DEEP_ARRAYS,
      null,
      vars,
      RANDOM,
    ),
    'extract_error',
  );
  t.equal(runExtractors([jsonExtractor('v', '$')], undefined, null, vars, RANDOM), undefined);
});

t.test('firstJsonValue: a scalar document answers only $', async (t) => {
  const rows: [unknown, string, unknown][] = [
    [0, '$', 0],
    [false, '$', false],
    ['', '$', ''],
    [null, '$', null],
    ['str', '$[0]', undefined],
    [0, '$.a', undefined],
    [[7], '$[0]', 7],
    [{ '@id': 'x' }, '$.`@id', 'x'],
  ];
  for (const [json, path, expected] of rows)
    t.equal(firstJsonValue(json, path), expected, `${JSON.stringify(json)} ${path}`);
});
