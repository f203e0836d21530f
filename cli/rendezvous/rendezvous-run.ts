/**
 * A run with `--coordinator` (docs/distributed.md, Kubernetes): the segments meet before any
 * traffic (coordinator.ts for the first, peer.ts for the others), start together at the time the
 * first gives, and send their raw results to the first, which merges them exactly (merge-raw.ts,
 * as `barrage merge` does), prints the whole run's report, writes the files asked for and exits
 * with the whole run's verdict. A segment lost on the way makes the result partial (exit 1).
 */
import type { Loaded } from '../../dsl/load-plan.js';
import { mergeRawResults, type NamedRaw } from '../../runtime/merge-raw.js';
import { planFingerprint, type RawResult } from '../../runtime/raw-result.js';
import type { BarrageContext } from '../context.js';
import { deliverOutcome } from '../command-outcome.js';
import { ExitCode } from '../exit-code.js';
import { checkOutputPaths, outputPathsOf } from '../output-paths.js';
import { Redactor } from '../render/redact.js';
import { importRenderers, resultOutcome } from '../report-outputs.js';
import { reportFromRaw } from '../run-report-builder.js';
import { VERSION } from '../version.js';
import { runLoadTest, type RunOutput } from '../commands/run-load-test.js';
import { gatherSegments, type PeerResult } from './coordinator.js';
import { joinRendezvous } from './peer.js';
import type { Rendezvous } from './rendezvous-flags.js';

/** From the release to the start: every segment receives it and sets up its workers. */
const START_MARGIN_MS = 1000;

/** Runs this segment as part of the rendezvous; returns the exit code. */
export async function runWithRendezvous(
  loaded: Loaded,
  context: BarrageContext,
  output: RunOutput,
  rendezvous: Rendezvous,
): Promise<number> {
  const { segment } = loaded.plan;
  const say = (line: string): void => {
    context.stderr.write(`barrage: segment ${segment.index}/${segment.count}: ${line}\n`);
  };
  const common = {
    address: rendezvous.address,
    fingerprint: planFingerprint(loaded.plan),
    version: VERSION,
    readyTimeoutMs: rendezvous.readyTimeoutMs,
  };
  // Before meeting the others: a segment that could not write its files would send its share
  // and then lose its report (the first segment, the whole run's).
  const unwritable = checkOutputPaths(context.cwd, outputPathsOf(loaded.plan));
  if (unwritable !== undefined) {
    say(`${new Redactor(loaded).message(unwritable)} (nothing was sent)`);
    return ExitCode.Failed;
  }
  if (segment.index === 1) {
    const gathered = await gatherSegments({
      ...common,
      count: segment.count,
      marginMs: START_MARGIN_MS,
      say,
    });
    if (!gathered.ok) {
      say(`${gathered.reason} (nothing was sent)`);
      return ExitCode.Failed;
    }
    const { session } = gathered;
    say(
      `all ${segment.count} segments ready: dispatch begins at ${new Date(session.startAt).toISOString()}`,
    );
    try {
      return await runLoadTest(startingAt(loaded, session.startAt), context, {
        ...output,
        finish: async (own) => deliverMerged(loaded, context, output, own, await session.results()),
      });
    } finally {
      session.close();
    }
  }
  const joined = await joinRendezvous({ ...common, segment });
  if (!joined.ok) {
    say(`${joined.reason} (nothing was sent)`);
    return ExitCode.Failed;
  }
  const { link } = joined;
  say(`released: dispatch begins at ${new Date(link.startAt).toISOString()}`);
  return runLoadTest(startingAt(loaded, link.startAt), context, {
    ...output,
    finish: async (own, deliverOwn) => {
      const code = deliverOwn();
      const problem = await link.sendResult(own);
      if (problem === undefined) return code;
      say(`its result did not reach the first segment: ${problem}`);
      return ExitCode.Failed;
    },
  });
}

function startingAt(loaded: Loaded, startAt: number): Loaded {
  return { ...loaded, plan: { ...loaded.plan, startAt } };
}

/** The first segment's result and the others' merged, reported as the whole run's. */
async function deliverMerged(
  loaded: Loaded,
  context: BarrageContext,
  output: RunOutput,
  own: RawResult,
  peers: readonly PeerResult[],
): Promise<ExitCode> {
  const count = own.segment.count;
  const named: NamedRaw[] = [{ name: `segment 1/${count}`, raw: own }];
  const lost = new Map<number, string>();
  for (const peer of peers)
    if ('raw' in peer) named.push({ name: `segment ${peer.index}/${count}`, raw: peer.raw });
    else lost.set(peer.index, peer.lost);
  const outcome = mergeRawResults(named, { missing: (index) => lost.get(index) ?? 'no result' });
  if ('problems' in outcome) {
    for (const problem of outcome.problems) context.stderr.write(`barrage: ${problem}\n`);
    return ExitCode.Failed;
  }
  for (const warning of outcome.warnings) context.stderr.write(`barrage: warning: ${warning}\n`);
  const paths = loaded.plan.report;
  return deliverOutcome(
    context,
    resultOutcome(context, {
      paths,
      raw: outcome.merged,
      report: reportFromRaw(outcome.merged),
      jsonOutput: output.jsonOutput,
      renderers: await importRenderers(paths),
      fatalNote: (fatal) => `a segment stopped early: ${fatal}`,
    }),
  );
}
