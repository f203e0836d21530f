/** `validate`'s view of the compiled Plan: the load, the endpoints and their shares, thresholds. */
import { authNeeds, variableProviders } from '../../dsl/compile/lint-plan.js';
import { formatDuration } from '../../dsl/grammar/duration.js';
import type { CheckPlan } from '../../model/plan/check-plan.js';
import type { EndpointPlan, ExtractorPlan } from '../../model/plan/endpoint-plan.js';
import type { Plan } from '../../model/plan/plan.js';
import { maxVus, topLevelLoad, type TopLevelLoad } from '../../model/plan/scenario-plan.js';
import {
  ISOLATE_BASE_MB,
  ISOLATE_MB_PER_VU,
  isolateHeapMb,
} from '../../model/plan/isolate-heap.js';
import { describeFlow } from './flow-view.js';
import { showStatusSet } from '../../model/plan/status-set.js';
import type { Template } from '../../model/plan/template.js';
import type { ThresholdSpec } from '../../model/plan/threshold-spec.js';
import { formatValue } from './report-figures.js';
import type { SocketioStepPlan } from '../../model/plan/socketio-plan.js';
import type { WsStepPlan } from '../../model/plan/ws-session-plan.js';
import { renderRateChart } from './rate-chart.js';
import { describeRate, renderScenarios } from './scenario-view.js';

const FORM_TYPE = 'application/x-www-form-urlencoded';

/** A template shown the way the user wrote it (an encoding is where the placeholder sits). */
export function showTemplate(template: Template): string {
  return template
    .map((part) => {
      if (typeof part === 'string') return part;
      if ('var' in part) return `{{${part.var}}}`;
      if (part.fn === 'randomInt') return `{{$randomInt ${part.min} ${part.max}}}`;
      if (part.fn === 'env') return `{{$env ${part.name}}}`;
      if (part.fn === 'randomString') return `{{$randomString ${part.length}}}`;
      if (part.fn === 'randomItem') return `{{$randomItem ${part.list}}}`;
      return `{{$${part.fn}}}`;
    })
    .join('');
}

function describeEnd(load: TopLevelLoad): string {
  const ends: string[] = [];
  if (load.durationMs !== undefined) ends.push(`after ${formatDuration(load.durationMs)}`);
  if (load.iterations !== undefined) ends.push(`after ${load.iterations} iterations`);
  if (load.rate.kind === 'pattern') ends.push('when the pattern ends');
  return ends.join(' or ');
}

/** "token ← login", "name ← feeder", "x ← nothing!" for each variable an endpoint needs. */
function describeNeeds(
  needs: readonly string[],
  providers: ReadonlyMap<string, readonly string[]>,
): string {
  if (needs.length === 0) return '';
  const parts = needs.map(
    (v) => `${v} ← ${providers.get(v)?.join(' | ') ?? 'nothing (will fail)'}`,
  );
  return `  needs ${parts.join(', ')}`;
}

/**
 * "token ← $.access_token", "rid ← header x-request-id", "n ← regex n=(\d+)",
 * "csrf ← css input[name=_csrf] @value", "title ← css title (text)".
 */
function describeExtractor(extractor: ExtractorPlan): string {
  const from = ((): string => {
    switch (extractor.from) {
      case 'json':
        return extractor.pick === undefined
          ? extractor.path
          : `${extractor.path} (${extractor.pick === 'all' ? 'all, a list' : 'one at random'})`;
      case 'header':
        return `header ${extractor.header}`;
      case 'regex':
        return `regex ${extractor.pattern}`;
      case 'css':
        return `css ${extractor.selector} ${extractor.attr === undefined ? '(text)' : `@${extractor.attr}`}`;
    }
  })();
  return `${extractor.variable} ← ${from}`;
}

/**
 * "ok: status 200, 2xx", "token: json $.token exists", "title: css h1 (text) contains Hello",
 * "fast: duration < 300ms".
 */
function describeCheck(check: CheckPlan): string {
  const { subject, predicate } = check;
  const what = ((): string => {
    switch (subject.from) {
      case 'json':
        return `json ${subject.path}`;
      case 'header':
        return `header ${subject.header}`;
      case 'css':
        return `css ${subject.selector} ${subject.attr === undefined ? '(text)' : `@${subject.attr}`}`;
      default:
        return subject.from;
    }
  })();
  const how = ((): string => {
    switch (predicate.op) {
      case 'exists':
        return 'exists';
      case 'in':
        return showStatusSet(predicate.statuses);
      case 'equals':
        return `equals ${JSON.stringify(predicate.value)}`;
      case 'matches':
        return `matches ${predicate.pattern}`;
      case 'contains':
        return `contains ${JSON.stringify(predicate.text)}`;
      case 'equalsText':
        return `equals ${JSON.stringify(showTemplate(predicate.text))}`;
      case 'containsText':
        return `contains ${JSON.stringify(showTemplate(predicate.text))}`;
      default: {
        const op = { lt: '<', lte: '<=', gt: '>', gte: '>=' }[predicate.op];
        return subject.from === 'duration'
          ? `${op} ${formatDuration(predicate.value)}`
          : `${op} ${predicate.value}`;
      }
    }
  })();
  return `${check.name}: ${what} ${how}`;
}

/** "  expects 200, 404  checks ok: status 200, …" (fails the request when it says so). */
function describeVerify(endpoint: EndpointPlan): string {
  const verify = endpoint.verify;
  if (verify === undefined) return '';
  const expect = verify.expect === undefined ? '' : `  expects ${showStatusSet(verify.expect)}`;
  if (verify.checks.length === 0) return expect;
  const fails = verify.checksFailRequest ? ' (a failed one fails the request)' : '';
  return `${expect}  checks ${verify.checks.map(describeCheck).join(', ')}${fails}`;
}

/**
 * The request line: "GET http://host/path?q={{term}}", "POST http://host/login  form username, _csrf", "GET
 * {{next}} (url from a variable)", "LLM openai-chat POST http://host/v1/chat/completions", "WS
 * ws://host/path (1 receive, 2 sends)" for a WebSocket session, or "SOCKET.IO http://host/chat
 * (1 receive, 2 emits)" for a Socket.IO one.
 */
function describeRequest(endpoint: EndpointPlan): string {
  const path = showTemplate(endpoint.path);
  const query = endpoint.query === undefined ? '' : showTemplate(endpoint.query);
  const joint = query === '' ? '' : path.includes('?') ? '&' : '?';
  const url =
    endpoint.urlFromVariable === undefined
      ? `${endpoint.origin}${path}${joint}${query}`
      : `${path}${joint}${query} (url from a variable)`;
  if (endpoint.socketio !== undefined)
    return `SOCKET.IO ${endpoint.origin}${endpoint.socketio.namespace} (${describeSteps(endpoint.socketio.steps)})`;
  if (endpoint.ws === undefined)
    return `${describeLlm(endpoint)}${endpoint.method} ${url}${describeBody(endpoint)}`;
  return `WS ${url} (${describeSteps(endpoint.ws.steps)})`;
}

/** An LLM endpoint's preset before its request line: "LLM openai-chat ", "LLM custom layout ". */
function describeLlm(endpoint: EndpointPlan): string {
  const llm = endpoint.llm;
  if (llm === undefined) return '';
  return `LLM ${llm.api ?? 'custom layout'} `;
}

/** A session's steps counted by kind: "1 receive, 2 sends, 1 listen", or "no steps". */
function describeSteps(steps: readonly (WsStepPlan | SocketioStepPlan)[]): string {
  const counts = new Map<string, number>();
  for (const step of steps) counts.set(step.kind, (counts.get(step.kind) ?? 0) + 1);
  if (counts.size === 0) return 'no steps';
  return [...counts].map(([kind, n]) => `${n} ${kind}${n === 1 ? '' : 's'}`).join(', ');
}

/**
 * The fields of a form or multipart body, never their values: "  form username, _csrf",
 * "  multipart title, photo ← photo.png (image/png)", a file per user by its path
 * ("avatar ← photos/{{photo}} (image/png)").
 */
function describeBody(endpoint: EndpointPlan): string {
  const body = endpoint.body;
  if (body?.kind === 'text') {
    const form = endpoint.headers.some(
      (h) => h.name.toLowerCase() === 'content-type' && h.value[0] === FORM_TYPE,
    );
    // Form text is name=value&…, names literal and form-encoded.
    const names = form ? [...new Set(new URLSearchParams(showTemplate(body.text)).keys())] : [];
    return names.length === 0 ? '' : `  form ${names.join(', ')}`;
  }
  if (body?.kind !== 'multipart') return '';
  const parts = body.parts.map((part) => {
    if (part.kind === 'field') return part.name;
    const file = part.kind === 'file' ? part.filename : showTemplate(part.path);
    return `${part.name} ← ${file} (${part.contentType})`;
  });
  return `  multipart ${parts.join(', ')}`;
}

/** A relative threshold's limit as the baseline set it: `(baseline 180 → < 198)`. */
function describeBaseline(threshold: ThresholdSpec): string {
  const baseline = threshold.relative?.baseline;
  return baseline === undefined
    ? ''
    : `  (baseline ${formatValue(baseline)} → ${threshold.operator} ${formatValue(threshold.expected)})`;
}

/** An abort_on_fail threshold's note: it stops the run when it fails, from its delay on. */
function describeAbort(threshold: ThresholdSpec): string {
  const abort = threshold.abortOnFail;
  if (abort === undefined) return '';
  const from = abort.delayMs === 0 ? 'from the start' : `after ${formatDuration(abort.delayMs)}`;
  return `  (stops the run when it fails, judged live ${from})`;
}

/** Which feeder record a worker's requests see. */
function describeRecordUse(plan: Plan): string {
  if (plan.script !== undefined) return 'one record per feed() call';
  const setup = plan.graph.setup.length > 0;
  if (plan.feeder!.per === 'worker')
    return `one record per worker${setup ? ' (taken before setup)' : ''}`;
  return `one record per iteration${setup ? ' (and one before setup)' : ''}`;
}

/** The plan as text. */
export function renderPlanView(plan: Plan): string {
  const lines = ['Plan:'];
  const top = topLevelLoad(plan.scenarios, plan.namedScenarios);
  if (top === undefined) lines.push(...renderScenarios(plan));
  else
    lines.push(
      `  load        ${top.workers} workers, ${describeRate(top.rate)}, ending ${describeEnd(top)}`,
    );
  lines.push(`  timeout     ${formatDuration(plan.timeoutMs)} per request`);
  const { outputs, periodMs } = plan.outputs;
  if (outputs.length > 0)
    lines.push(
      `  outputs     ${outputs.map((o) => `${o.kind} ${o.target}`).join(', ')}, every ${formatDuration(periodMs)}`,
    );
  if (top?.rate.kind === 'pattern') {
    lines.push(`  rate plan   ${top.rate.pattern.type}`);
    for (const line of renderRateChart(top.rate.pattern)) lines.push(`    ${line}`);
  }
  if (plan.feeder !== undefined) {
    const { feeder } = plan;
    lines.push(
      `  feeder      ${feeder.file}: ${feeder.records.count} records (${feeder.records.fields.join(', ')}), ${feeder.order}${feeder.cycle ? ', cycling' : ', once'}, ${describeRecordUse(plan)}`,
    );
  }
  if (plan.script !== undefined) {
    const kb = (Buffer.byteLength(plan.script.code) / 1024).toFixed(1);
    const hosts = plan.allowedHosts.length === 0 ? 'none' : plan.allowedHosts.join(', ');
    lines.push(
      `  scenario    ${plan.script.file} (bundled, ${kb} KB); allowed hosts besides the target: ${hosts}`,
      `  isolate     ${describeIsolateHeap(plan)}`,
    );
  }
  const { endpoints, picks, flows } = plan.graph;
  const providers = variableProviders(plan);
  const share = (weight: number): string => `${((weight / picks.total) * 100).toFixed(1)}%`;
  // A scenario's requests are known only when it runs.
  if (plan.script === undefined) lines.push('  endpoints');
  const nameWidth = Math.max(0, ...endpoints.map((e) => e.name.length));
  for (const endpoint of endpoints) {
    const role = endpoint.setup ? 'setup' : flows.length > 0 ? 'in flows' : share(endpoint.weight);
    const extracts =
      endpoint.extract.length > 0
        ? `  extracts ${endpoint.extract.map(describeExtractor).join(', ')}`
        : '';
    const reauth =
      endpoint.reauth === undefined
        ? ''
        : `  on ${showStatusSet(endpoint.reauth.on)}: runs ${endpoints[endpoint.reauth.run]?.name ?? '?'}, then once more`;
    lines.push(
      `    ${endpoint.name.padEnd(nameWidth)}  [${role}]  ${describeRequest(endpoint)}${describeNeeds(endpoint.needs, providers)}${extracts}${describeVerify(endpoint)}${reauth}`,
    );
  }
  for (const flow of flows)
    lines.push(...describeFlow(flow, `  flow ${flow.name}  [${share(flow.weight)}]`, endpoints));
  if (plan.script?.expect !== undefined)
    lines.push(`  expect      ${showStatusSet(plan.script.expect)} (the scenario's requests)`);
  const auth = authNeeds(plan);
  if (plan.auth !== undefined)
    lines.push(`  auth        ${plan.auth.type}${describeNeeds(auth, providers)}`);
  if (plan.thresholds.length > 0) {
    lines.push('  thresholds');
    for (const t of plan.thresholds)
      lines.push(`    ${t.expression}${describeBaseline(t)}${describeAbort(t)}`);
    const aliases = new Set(
      plan.thresholds.flatMap((t) => (t.aliases ?? []).map((a) => `${a.written} → ${a.as}`)),
    );
    if (aliases.size > 0)
      lines.push(`  note        k6 spellings read as barrage's: ${[...aliases].join(', ')}`);
    if (plan.thresholds.some((t) => t.metric === 'http_reqs'))
      lines.push(
        "  note        http_reqs counts HTTP requests only, as k6's does; barrage's http_requests counts WebSocket sessions too",
      );
  }
  return lines.join('\n') + '\n';
}

/**
 * The heap limit of each scripted segment's isolate (model/plan/isolate-heap.ts), for the most
 * virtual users one segment may run: all of them with one thread, fewer with more.
 */
function describeIsolateHeap(plan: Plan): string {
  const vus = plan.scenarios.reduce((sum, scenario) => sum + maxVus(scenario.executor), 0);
  return `heap limit ${ISOLATE_BASE_MB} MB + ${ISOLATE_MB_PER_VU} MB a virtual user: ${isolateHeapMb(vus)} MB for ${vus} on one thread (a thread's own share with more)`;
}
