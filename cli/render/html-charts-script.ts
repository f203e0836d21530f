/**
 * The script that draws the HTML report's charts in the browser (plain ES2017, no modules: it
 * runs from a file:// page with no network). It reads the JSON result from the page's
 * `#barrage-data` block and draws, with uPlot, each `<figure data-chart=NAME>`:
 *
 *   throughput    requests per one-second bucket        x = elapsed s, y = req/s
 *   latency       p50, p95, p99 of each bucket (ms)     gaps where a second had no response
 *   errors        failed requests per bucket
 *   vus           active virtual users of each second   (`#barrage-series` block, when sampled)
 *   endpoint-throughput   requests/s of each of the most requested endpoints (`#barrage-series`)
 *   endpoint-latency      their mean latency of each second, ms (gaps: no request that second)
 *   distribution  the latency percentile curve (HDR)    x = nines = −log10(1 − p/100), so that
 *                 0 → 0 %, 1 → 90 %, 2 → 99 %, 3 → 99.9 %; p = 100 (the max) has no place on it
 *   trend-<i>     the i-th custom trend's p50, p90, p95 and p99, on the same percentile axis
 *   llm-tokens    LLM output tokens per bucket (the series' llm_output_tokens; 0 in a second
 *                 without), as throughput is drawn, its partial last second too
 *   distribution-<metric>  the percentile curve of a registry trend marked `distribution` (LLM
 *                 TTFT and ITL; `#barrage-series`'s `distributions`), as the latency's
 *
 * With a baseline (`--baseline`, a `#barrage-baseline` block), throughput, latency, errors and
 * distribution also draw the baseline run's lines, dashed, on the union of both runs' x values
 * (a second or percentile one run lacks is a gap in its line); each figure with them carries
 * `data-baseline` (how many baseline lines it drew).
 *
 * A run that ended inside its last second (3.4 s: second 3 lasted 0.4 s) would end throughput and
 * errors in a cliff, its last bucket counted over less than a second. That second is drawn apart,
 * as what it is: its count divided by its length (a rate, as the others), on a dashed line from
 * the last whole second labelled with its length; the figure carries `data-partial` (the length,
 * s) and `data-partial-value` (the rate drawn). Legends show each line's value at the hovered x,
 * and its last value when nothing is hovered (uPlot's default shows `--` until hovered).
 *
 * After drawing, a figure carries `data-points` (how many x values its chart holds) and the root
 * element `data-charts="ready"`: the browser test reads both. Charts follow the page's width on
 * resize, and take a fixed width when printed.
 */

/** The chart script's source text. */
export const CHARTS_SCRIPT = String.raw`(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('barrage-data').textContent);
  var HEIGHT = 220;
  var PRINT_WIDTH = 660;
  var charts = [];

  function widthOf(box) {
    return Math.max(240, Math.floor(box.clientWidth));
  }

  function elapsed(v) {
    if (v < 120) return v + 's';
    var s = v % 60;
    return Math.floor(v / 60) + ':' + (s < 10 ? '0' : '') + s;
  }

  function percentOfNines(v) {
    var p = 100 * (1 - Math.pow(10, -v));
    return (Math.round(p * 1000) / 1000) + '%';
  }

  function line(label, stroke, fill) {
    var s = { label: label, stroke: stroke, width: 2, spanGaps: false };
    if (fill) s.fill = fill;
    return s;
  }

  function timeAxes(yLabel) {
    return [
      { label: 'elapsed', values: function (u, splits) { return splits.map(elapsed); } },
      { label: yLabel, size: 60 },
    ];
  }

  var baselineBlock = document.getElementById('barrage-baseline');
  var baseline = baselineBlock ? JSON.parse(baselineBlock.textContent) : null;

  function dashed(s) {
    s.dash = [6, 4];
    s.width = 1.5;
    delete s.fill;
    return s;
  }

  // The run's columns and, with a baseline, its columns too, on the union of both x values:
  // own and base are point lists, xOf their x, ownYs and baseYs the y of each line.
  function overlaid(own, base, xOf, ownYs, baseYs) {
    var all = own.map(xOf);
    if (base) base.forEach(function (p) { if (all.indexOf(xOf(p)) < 0) all.push(xOf(p)); });
    all.sort(function (a, b) { return a - b; });
    function column(points, y) {
      var at = {};
      points.forEach(function (p) { at[xOf(p)] = y(p); });
      return all.map(function (x) { return x in at ? at[x] : null; });
    }
    var columns = [all].concat(ownYs.map(function (y) { return column(own, y); }));
    if (base) columns = columns.concat(baseYs.map(function (y) { return column(base, y); }));
    return columns;
  }

  function rounded(v) {
    return String(Math.round(v * 100) / 100);
  }

  // A line's value in its legend: at the hovered x, or its last value (never uPlot's '--').
  function legendValue(u, v, sidx, idx) {
    if (idx != null) return v == null ? '' : rounded(v);
    var column = u.data[sidx];
    for (var i = column.length - 1; i >= 0; i--)
      if (column[i] != null) return rounded(column[i]) + ' (last)';
    return '';
  }

  function draw(name, opts, columns) {
    var figure = document.querySelector('[data-chart="' + name + '"]');
    if (!figure) return;
    var drawnBase = opts.series.filter(function (s) { return s.dash && !s.partial; }).length;
    if (drawnBase > 0) figure.setAttribute('data-baseline', String(drawnBase));
    var box = figure.querySelector('.plot');
    box.textContent = '';
    figure.setAttribute('data-points', String(columns[0].length));
    if (columns[0].length === 0) {
      box.textContent = 'No data: nothing was measured.';
      return;
    }
    opts.width = widthOf(box);
    opts.height = HEIGHT;
    opts.series.forEach(function (s, i) { if (i > 0 && !s.value) s.value = legendValue; });
    var u = new uPlot(opts, columns, box);
    figure.setAttribute('data-points', String(u.data[0].length));
    charts.push({ u: u, box: box });
  }

  var series = data.series;
  var baseSeries = baseline ? baseline.series : null;
  var second = function (p) { return p.second; };
  var xSeconds = { label: 'second', value: function (u, v) { return v == null ? '' : elapsed(v); } };
  // Counts and latencies start at 0, so a flat line near the top does not look like a spike.
  var timeScale = {
    x: { time: false },
    y: { range: function (u, min, max) { return [0, max > 0 ? max * 1.1 : 1]; } },
  };
  var secondIncrs = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600];

  // The run's lines, then (with a baseline) the same lines dashed and labelled as the baseline's.
  function withBase(lines) {
    if (!baseline) return lines;
    return lines.concat(lines.map(function (l) {
      return dashed(Object.assign({}, l, { label: 'baseline ' + l.label }));
    }));
  }

  function timeOpts(yLabel, lines) {
    var axes = timeAxes(yLabel);
    axes[0].incrs = secondIncrs;
    return { scales: timeScale, axes: axes, series: [xSeconds].concat(withBase(lines)) };
  }

  function pick(key) { return function (p) { return p[key]; }; }
  // A count of the second, 0 in one that counted none (a figure kept only where counted).
  function countOf(key) { return function (p) { return p[key] || 0; }; }

  // The last bucket's length when the run ended inside it (0 < span < 1 s), else 1.
  var lastPoint = series[series.length - 1];
  var span = lastPoint ? data.duration_ms / 1000 - lastPoint.second : 1;
  if (!(span > 0 && span < 1)) span = 1;
  var partialSecond = span < 1 ? lastPoint.second : -1;

  // A per-second count's chart: the whole seconds, then the partial one dashed, as a rate.
  function counted(name, yLabel, lineOpts, key) {
    var value = countOf(key);
    var whole = function (p) { return p.second === partialSecond ? null : value(p); };
    var opts = timeOpts(yLabel, [lineOpts]);
    var columns = overlaid(series, baseSeries, second, [whole], [value]);
    if (span < 1) {
      var tail = {};
      series.forEach(function (p) {
        if (p.second === partialSecond) tail[p.second] = value(p) / span;
        else if (p.second === partialSecond - 1) tail[p.second] = value(p);
      });
      opts.series.push(Object.assign(line('last ' + span.toFixed(2) + ' s, per second', lineOpts.stroke), {
        dash: [4, 4],
        partial: true,
        points: { show: true, size: 6 },
      }));
      columns.push(columns[0].map(function (x) { return x in tail ? tail[x] : null; }));
      var marked = document.querySelector('[data-chart="' + name + '"]');
      marked.setAttribute('data-partial', span.toFixed(3));
      marked.setAttribute('data-partial-value', (tail[partialSecond] || 0).toFixed(2));
    }
    draw(name, opts, columns);
  }

  counted('throughput', 'req/s', line('requests/s', '#2563eb', 'rgba(37,99,235,0.12)'), 'requests');
  var percentiles = [pick('p50_ms'), pick('p95_ms'), pick('p99_ms')];
  draw('latency', timeOpts('ms', [
    line('p50', '#16a34a'),
    line('p95', '#d97706'),
    line('p99', '#dc2626'),
  ]), overlaid(series, baseSeries, second, percentiles, percentiles));
  counted('errors', 'failed/s', line('failed/s', '#dc2626', 'rgba(220,38,38,0.12)'), 'failures');
  if (document.querySelector('[data-chart="llm-tokens"]'))
    counted('llm-tokens', 'tokens/s', line('output tokens/s', '#db2777', 'rgba(219,39,119,0.12)'), 'llm_output_tokens');

  var seriesBlock = document.getElementById('barrage-series');
  var extra = seriesBlock ? JSON.parse(seriesBlock.textContent) : {};
  if (extra.vus) {
    var vusOpts = timeOpts('VUs', [line('active VUs', '#0d9488', 'rgba(13,148,136,0.12)')]);
    vusOpts.series = vusOpts.series.slice(0, 2);
    draw('vus', vusOpts, [extra.vus.map(second), extra.vus.map(pick('active'))]);
  }
  if (extra.endpoints) {
    var palette = ['#2563eb', '#d97706', '#16a34a', '#dc2626', '#7c3aed', '#0891b2', '#db2777', '#4b5563'];
    var xs = series.map(second);
    // Each endpoint's value at each second of the run: a count per second (0 without requests,
    // the partial last second as a rate over its length) or a mean (a gap without requests).
    var byEndpoint = function (value, none) {
      return extra.endpoints.map(function (e) {
        var at = {};
        e.seconds.forEach(function (p) { at[p.second] = value(p); });
        return xs.map(function (x) { return x in at ? at[x] : none; });
      });
    };
    var lines = function () {
      return extra.endpoints.map(function (e, i) {
        return Object.assign(line(e.name, palette[i % palette.length]), { points: { show: true, size: 4 } });
      });
    };
    var endpointOpts = function (yLabel) {
      var opts = timeOpts(yLabel, []);
      opts.series = [xSeconds].concat(lines());
      return opts;
    };
    draw('endpoint-throughput', endpointOpts('req/s'), [xs].concat(byEndpoint(function (p) {
      return p.second === partialSecond ? p.requests / span : p.requests;
    }, 0)));
    draw('endpoint-latency', endpointOpts('ms'), [xs].concat(byEndpoint(pick('mean_ms'), null)));
    if (span < 1)
      document.querySelector('[data-chart="endpoint-throughput"]').setAttribute('data-partial', span.toFixed(3));
  }

  function ninesOf(percentile) {
    return -Math.log10(1 - percentile / 100);
  }

  function percentileOpts(maxNines, unit, label, stroke, fill) {
    return {
      scales: { x: { time: false, range: [0, Math.max(1, maxNines)] } },
      axes: [
        {
          label: 'percentile',
          splits: function () {
            var s = [];
            for (var i = 0; i <= Math.max(1, maxNines); i++) s.push(i);
            return s;
          },
          // On a narrow chart every other label, so that 99.99% and 99.999% do not overlap.
          values: function (u, splits) {
            return splits.map(function (v) {
              return u.width < 420 && v % 2 === 1 && v > 1 ? '' : percentOfNines(v);
            });
          },
        },
        { label: unit, size: 60 },
      ],
      series: [
        { label: 'percentile', value: function (u, v) { return v == null ? '' : percentOfNines(v); } },
        Object.assign(line(label, stroke, fill), { points: { show: true, size: 5 } }),
      ],
    };
  }

  function curveOf(distribution) {
    return distribution.filter(function (p) { return p.percentile < 100; });
  }
  var curve = curveOf(data.latency_distribution);
  var baseCurve = baseline ? curveOf(baseline.latency_distribution) : null;
  var byNines = function (p) { return ninesOf(p.percentile); };
  var curveColumns = overlaid(curve, baseCurve, byNines, [pick('ms')], [pick('ms')]);
  var nines = curveColumns[0];
  var maxNines = nines.length === 0 ? 0 : Math.ceil(nines[nines.length - 1] - 1e-9);
  var curveOpts = percentileOpts(maxNines, 'ms', 'latency ms', '#7c3aed', 'rgba(124,58,237,0.10)');
  if (baseline)
    curveOpts.series.push(dashed(Object.assign(line('baseline latency ms', '#7c3aed'), {
      points: { show: true, size: 4 },
      spanGaps: true,
    })));
  draw('distribution', curveOpts, curveColumns);

  var distributions = extra.distributions || {};
  Object.keys(distributions).forEach(function (metric) {
    var points = curveOf(distributions[metric]);
    var xs = points.map(byNines);
    var most = xs.length === 0 ? 0 : Math.ceil(xs[xs.length - 1] - 1e-9);
    draw('distribution-' + metric, percentileOpts(most, 'ms', metric + ' ms', '#db2777', 'rgba(219,39,119,0.10)'),
      [xs, points.map(pick('ms'))]);
  });

  var metrics = data.metrics || {};
  Object.keys(metrics).filter(function (name) { return metrics[name].type === 'trend'; })
    .forEach(function (name, i) {
      var m = metrics[name];
      var points = [50, 90, 95, 99].filter(function (p) { return typeof m['p' + p] === 'number'; });
      draw('trend-' + i, percentileOpts(2, m.unit, name, '#0891b2', 'rgba(8,145,178,0.10)'),
        [points.map(ninesOf), points.map(function (p) { return m['p' + p]; })]);
    });

  function fit() {
    charts.forEach(function (c) { c.u.setSize({ width: widthOf(c.box), height: HEIGHT }); });
  }
  var pending = 0;
  window.addEventListener('resize', function () {
    cancelAnimationFrame(pending);
    pending = requestAnimationFrame(fit);
  });
  window.addEventListener('beforeprint', function () {
    charts.forEach(function (c) { c.u.setSize({ width: PRINT_WIDTH, height: 200 }); });
  });
  window.addEventListener('afterprint', fit);
  document.documentElement.setAttribute('data-charts', 'ready');
})();
`;
