import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import React from 'react';
import { render, Box, Text } from 'ink';
import { toFlagLayer } from '../dist/cli/flags.js';
import { buildModel } from '../dist/cli/dashboard/dashboard-model.js';
import { ErrorFeed } from '../dist/cli/dashboard/error-feed.js';
import { renderScreen } from '../dist/cli/dashboard/screen.js';
import { toAnsi } from '../dist/cli/dashboard/styled-line.js';
import { TerminalSession } from '../dist/cli/dashboard/terminal-session.js';
import { loadPlan } from '../dist/dsl/load-plan.js';
import { Recorder } from '../dist/runtime/metrics/recorder.js';
/** A plan with `endpoints` endpoints and three thresholds, through the real loader. */
function benchPlan(endpoints) {
  const dir = mkdtempSync(join(tmpdir(), 'barrage-bench-dashboard-'));
  const config = {
    target: 'http://127.0.0.1:9',
    duration: '20m',
    rate: 1000,
    concurrency: 50,
    endpoints: Array.from({ length: endpoints }, (_, i) => ({
      name: `endpoint-${i}`,
      url: `/${i}`,
    })),
    thresholds: [
      'http_req_duration:p95 < 300',
      'http_req_failed:rate < 0.01',
      'http_req_duration{endpoint=endpoint-0}:p99 < 500',
    ],
  };
  writeFileSync(join(dir, 'load.json'), JSON.stringify(config));
  const loaded = loadPlan({
    cwd: dir,
    env: {},
    configFile: 'load.json',
    flags: toFlagLayer({}).layer,
    flagIssues: [],
    userAgent: 'bench',
    fallbackSeed: 1,
  });
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.error.issues));
  return loaded.value.plan;
}

/**
 * CPU ms of one dashboard tick after 10 minutes at 1000 requests/s (lognormal latencies around
 * 5 ms, 1% failing), with 1000 more requests between ticks so that every figure changes.
 */
function frameCost(endpoints, size) {
  const plan = benchPlan(endpoints);
  const names = plan.graph.endpoints.map((e) => e.name);
  const recorder = new Recorder({
    endpointCount: endpoints,
    segment: { index: 1, count: 1 },
    startedAt: 0,
    openModel: true,
  });
  let seed = 7;
  const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  let n = 0;
  const record = (count) => {
    for (let i = 0; i < count; i++, n++) {
      const us = 5000 * Math.exp(0.8 * (random() + random() + random() - 1.5));
      const end = n * 1000;
      const failed = random() < 0.01;
      const status = failed ? 503 : 200;
      recorder.recordRequest(
        n % endpoints,
        status,
        failed ? 'http_5xx' : undefined,
        end - us,
        end,
        end - us - 50,
        200,
        100,
      );
    }
  };
  record(600_000);
  const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
  const session = new TerminalSession({
    stdout: sink,
    setRawMode: undefined,
    onExit: () => () => undefined,
  });
  const feed = new ErrorFeed(names);
  session.enter();
  const frames = 100;
  let cpuMs = 0;
  for (let frame = 0; frame < frames; frame++) {
    record(1000);
    const snapshot = recorder.snapshot(n * 1000);
    const before = process.cpuUsage();
    feed.update(snapshot);
    const model = buildModel({
      plan,
      title: plan.target,
      endpointNames: names,
      snapshot,
      live: { workers: 50, busy: 12, inFlight: 12, targetRate: 1000 },
      stopping: false,
      latestErrors: feed.events,
    });
    session.draw(renderScreen(model, size).map((line) => toAnsi(line, true)));
    const used = process.cpuUsage(before);
    cpuMs += (used.user + used.system) / 1000;
  }
  session.leave();
  return cpuMs / frames;
}

async function inkFrameCost(endpoints, size) {
  const plan = benchPlan(endpoints);
  const names = plan.graph.endpoints.map((e) => e.name);
  const recorder = new Recorder({
    endpointCount: endpoints,
    segment: { index: 1, count: 1 },
    startedAt: 0,
    openModel: true,
  });
  let seed = 7;
  const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  let n = 0;
  const record = (count) => {
    for (let i = 0; i < count; i++, n++) {
      const us = 5000 * Math.exp(0.8 * (random() + random() + random() - 1.5));
      const end = n * 1000;
      const failed = random() < 0.01;
      const status = failed ? 503 : 200;
      recorder.recordRequest(
        n % endpoints,
        status,
        failed ? 'http_5xx' : undefined,
        end - us,
        end,
        end - us - 50,
        200,
        100,
      );
    }
  };
  record(600_000);
  const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
  sink.columns = size.columns;
  sink.rows = size.rows;
  const colors = { green: 'green', red: 'red', yellow: 'yellow', cyan: 'cyan' };
  const tree = (lines) =>
    React.createElement(
      Box,
      { flexDirection: 'column', width: size.columns, height: size.rows },
      ...lines.map((line, i) =>
        React.createElement(
          Text,
          { key: i, wrap: 'truncate' },
          ...line.map((s, j) =>
            React.createElement(
              Text,
              {
                key: j,
                color: colors[s.style],
                bold: s.style === 'bold',
                dimColor: s.style === 'dim',
                inverse: s.style === 'inverse',
              },
              s.text,
            ),
          ),
        ),
      ),
    );
  let app;
  const feed = new ErrorFeed(names);
  const frames = 100;
  let cpuMs = 0;
  for (let frame = 0; frame < frames; frame++) {
    record(1000);
    const snapshot = recorder.snapshot(n * 1000);
    const before = process.cpuUsage();
    feed.update(snapshot);
    const model = buildModel({
      plan,
      title: plan.target,
      endpointNames: names,
      snapshot,
      live: { workers: 50, busy: 12, inFlight: 12, targetRate: 1000 },
      stopping: false,
      latestErrors: feed.events,
    });
    const lines = renderScreen(model, size);
    if (app === undefined)
      app = render(tree(lines), { stdout: sink, patchConsole: false, exitOnCtrlC: false });
    else app.rerender(tree(lines));
    await sleep(40);
    const used = process.cpuUsage(before);
    cpuMs += (used.user + used.system) / 1000;
  }
  app.unmount();
  return cpuMs / frames;
}

for (const [e, c, r] of [
  [1, 80, 24],
  [10, 120, 40],
  [200, 120, 40],
]) {
  const ours = frameCost(e, { columns: c, rows: r });
  const inked = await inkFrameCost(e, { columns: c, rows: r });
  console.log(
    `${e} endpoints ${c}x${r}: ANSI renderer ${ours.toFixed(3)} ms/frame, ink ${inked.toFixed(3)} ms/frame`,
  );
}
