import t from 'tap';
import { renderRateChart } from '../../cli/render/rate-chart.js';

t.test('the chart shows the shape: a step up is low columns then full ones', async (t) => {
  const lines = renderRateChart(
    {
      type: 'step',
      steps: [
        { rate: 10, durationMs: 1000 },
        { rate: 40, durationMs: 1000 },
      ],
    },
    10,
    4,
  );
  t.equal(lines.length, 6);
  t.match(lines[0], /^40\/s │ {5}█{5}$/);
  t.match(lines[3], /^ 0\/s │█{10}$/, 'the base rate fills the lowest row');
  t.match(lines[5], /2s$/);
});

t.test('a ramp rises from left to right', async (t) => {
  const top = renderRateChart({ type: 'ramp', from: 0, to: 100, durationMs: 60_000 }, 20, 1)[0]!;
  const bars = top.slice(top.indexOf('│') + 1);
  const heights = [...bars].map((c) => ' ▁▂▃▄▅▆▇█'.indexOf(c));
  t.same(
    [...heights].sort((a, b) => a - b),
    heights,
    'non-decreasing',
  );
  t.equal(heights[heights.length - 1], 8);
});
