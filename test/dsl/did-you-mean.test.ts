import t from 'tap';
import { closest, editDistance } from '../../dsl/grammar/did-you-mean.js';

t.test('editDistance counts inserts, deletes, substitutions and swaps', (t) => {
  const cases: readonly (readonly [string, string, number])[] = [
    ['', '', 0],
    ['', 'abc', 3],
    ['abc', '', 3],
    ['kitten', 'sitting', 3],
    ['duration', 'duartion', 1],
    ['avg', 'avgg', 1],
    ['p95', 'p59', 1],
    ['abc', 'abc', 0],
  ];
  for (const [a, b, d] of cases) t.equal(editDistance(a, b), d, `${a} → ${b}`);
  t.end();
});

t.test('closest suggests near misses only', (t) => {
  const metrics = ['http_req_duration', 'http_req_failed', 'http_requests', 'checks'];
  const cases: readonly (readonly [string, readonly string[], string | undefined])[] = [
    ['http_req_durration', metrics, 'http_req_duration'],
    ['http_req_duartion', metrics, 'http_req_duration'],
    ['HTTP_REQ_FAILED', metrics, 'http_req_failed'],
    ['check', metrics, 'checks'],
    ['latency', metrics, undefined],
    ['', metrics, undefined],
    ['x', ['y', 'xy'], 'y'],
    ['ab', ['cd'], undefined],
    ['mean', ['max'], undefined],
    ['avgg', ['avg', 'max'], 'avg'],
    ['BARRAGE_CONCURENCY', ['BARRAGE_CONCURRENCY', 'BARRAGE_DURATION'], 'BARRAGE_CONCURRENCY'],
    ['a'.repeat(100), ['a'.repeat(100)], undefined],
    ['anything', [], undefined],
  ];
  for (const [word, candidates, expected] of cases)
    t.equal(closest(word, candidates), expected, word);
  t.end();
});

t.test('the first candidate wins a tie', (t) => {
  t.equal(closest('cat', ['bat', 'hat']), 'bat');
  t.end();
});
