// The outputs phase: what live outputs cost the load (docs/outputs.md). The same closed-model run
// with no output, with the JSON stream, and with Prometheus remote write to a receiver that
// refuses everything and to one that never answers, flushing every second; rounds alternate so a
// noisy machine's drift falls on every row alike. Goal: every row ≥ 0.95 × no output.
import { createServer } from 'node:http';
import { alternateBarrage } from './generators.mjs';
import { startBarrageTarget } from './targets.mjs';
import { table } from './table.mjs';

const ROUNDS = 2;

/** A loopback receiver: `refuse` answers 500, else it never answers. */
async function receiver(refuse) {
  const server = createServer((req, res) => {
    req.resume();
    if (refuse) res.writeHead(500).end('refused by the bench');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/api/v1/write`,
    stop: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

export async function outputsPhase({ seconds, generatorCore, targetCore, fmt }) {
  const target = await startBarrageTarget(targetCore);
  const refusing = await receiver(true);
  const silent = await receiver(false);
  console.log(
    `\n## Live outputs: concurrency 50, ${seconds}s a run, ${ROUNDS} rounds, target ${target.name}`,
  );
  const configs = [
    ['no output', []],
    ['json to /dev/null', ['--out', 'json=/dev/null']],
    ['prometheus-rw, receiver refuses', ['--out', `prometheus-rw=${refusing.url}`]],
    ['prometheus-rw, receiver never answers', ['--out', `prometheus-rw=${silent.url}`]],
  ];
  try {
    const runs = await alternateBarrage(configs, ROUNDS, {
      url: `${target.url}/json`,
      concurrency: 50,
      seconds,
      core: generatorCore,
      extra: ['--out-period', '1s'],
    });
    const rows = configs.map(([name], i) => ({
      name,
      rps: runs[i].reduce((a, run) => a + run.rps, 0) / ROUNDS,
    }));
    const base = rows[0].rps;
    table(rows, [
      ['outputs', (r) => r.name],
      ['req/s (mean)', (r) => fmt(r.rps, 0)],
      ['× no output', (r) => fmt(r.rps / base)],
    ]);
    const worst = Math.min(...rows.map((r) => r.rps / base));
    console.log(
      `goal: every output ≥ 0.95 × no output → ${fmt(worst)} ${worst >= 0.95 ? 'met' : 'NOT met'}`,
    );
  } finally {
    refusing.stop();
    silent.stop();
    target.stop();
  }
}
