// `barrage validate` (the built binary, spawned) on scenarios: each bad one is an error naming
// file:line and the key, exit 1, nothing sent; a good set is listed scenario by scenario.
import t from 'tap';
import { runCli } from '../helpers/run-cli.js';
import { testRefusals, type Refusal } from '../helpers/validate-refusals.js';

const BASE =
  'target: http://127.0.0.1:9\nendpoints: [{ name: home, url: / }]\nflows: [{ name: checkout, steps: [home] }]\n';

const BAD: readonly Refusal[] = [
  [
    'a flow the configuration lacks',
    'scenarios:\n  a:\n    executor: constant-vus\n    duration: 1s\n    flows: [chekout]',
    /load\.yaml:8:\d+: scenarios\.a\.flows\[0\]: expected one of the configuration's flows: checkout, got "chekout" \(did you mean checkout\?\)/,
  ],
  [
    'a top-level rate beside scenarios',
    'rate: 5\nscenarios:\n  a:\n    executor: constant-vus\n    duration: 1s',
    /load\.yaml:4:\d+: rate: expected no top-level rate beside scenarios/,
  ],
  [
    'max_vus below pre_allocated_vus',
    'scenarios:\n  a:\n    executor: constant-arrival-rate\n    rate: 5\n    duration: 1s\n    pre_allocated_vus: 4\n    max_vus: 2',
    /load\.yaml:10:\d+: scenarios\.a\.max_vus: expected at least pre_allocated_vus \(4\), got 2/,
  ],
  [
    'a stage without a target',
    'scenarios:\n  a:\n    executor: ramping-vus\n    stages: [{ duration: 1s }]',
    /load\.yaml:7:\d+: scenarios\.a\.stages\[0\]\.target: expected a number ≥ 0/,
  ],
  [
    'an unknown executor',
    'scenarios:\n  a:\n    executor: const-vus\n    duration: 1s',
    /load\.yaml:6:\d+: scenarios\.a\.executor: expected .*constant-vus, ramping-vus, constant-arrival-rate, ramping-arrival-rate, per-vu-iterations, shared-iterations, got "const-vus"/,
  ],
];

testRefusals(BASE, BAD);

t.test('a good set of scenarios is listed with each load', async (t) => {
  const dir = t.testdir({
    'load.yaml': `${BASE}scenarios:\n  browse:\n    executor: ramping-vus\n    start_vus: 0\n    stages: [{ duration: 1s, target: 4 }]\n  buy:\n    executor: constant-arrival-rate\n    rate: 50\n    duration: 2s\n    pre_allocated_vus: 1\n    max_vus: 5\n    flows: [checkout]\n    start_time: 500ms\nthresholds:\n  - http_req_duration{scenario=buy}:p95 < 300\n`,
  });
  const result = await runCli(['validate', 'load.yaml'], { cwd: dir });
  t.equal(result.code, 0, result.stderr);
  t.match(result.stdout, /browse {2}ramping-vus, from 0s: 0 VUs, then → 4 VUs over 1s/);
  t.match(
    result.stdout,
    /buy {5}constant-arrival-rate, from 500ms: 50\/s for 2s, 1–5 VUs \(dropped past them\); runs flow checkout/,
  );
  t.match(result.stdout, /http_req_duration\{scenario=buy\}:p95 < 300/);
  t.match(result.stdout, / 4 VUs │/, 'the ramp drawn in virtual users');
  t.match(result.stdout, / 50\/s │ +█/, 'the rate drawn from its start time');
});
