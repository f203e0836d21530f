/**
 * Threshold expressions (DESIGN.md §6), in the manner of k6's metrics/thresholds_parser.go:
 * scanThreshold() cuts the expression into its parts without judging them, then each part is
 * parsed strictly, left to right, so the first error names the part that is wrong.
 *
 *   threshold  := ws* metric tags? ":" aggregate ws* operator ws* value ws*
 *   metric     := a built-in metric (plan/metrics.ts) | a declared custom metric
 *               | "http_reqs"                     (k6's name of http_requests)
 *   tags       := "{" tag ("," tag)* "}"
 *   tag        := key "=" tag-value
 *   key        := [A-Za-z_] [A-Za-z0-9_.-]*      (a built-in tag the metric's samples carry, or
 *                                                  a user tag: configurations check those)
 *   tag-value  := '"' ([^"\\] | "\\" ["\\])+ '"'  (quoted: may hold , = } and spaces)
 *               | [^},="]+
 *   aggregate  := a name from the metric's aggregates
 *               | "p" digit+ ("." digit+)?        (trend metrics; 0 < percentile <= 100)
 *               | "p(" digit+ ("." digit+)? ")"   (k6's spelling of the same)
 *               | "med"                           (k6's name of p50)
 *   operator   := "<" | "<=" | ">" | ">=" | "=="
 *   value      := number
 *               | "baseline" (ws* ("*" | "+" | "-") ws* number)?
 *                                                 (the baseline run's own figure, scaled or
 *                                                  shifted: `--baseline`, docs/reports.md)
 *   number     := "-"? digit+ ("." digit+)? ([eE] [+-]? digit+)?
 *   ws         := any white space
 *
 * e.g. `http_req_duration{endpoint=login,status=200}:p99.9 <= 250`, `http_req_failed:rate < 0.01`,
 * `checks{check="cart, total"}:rate > 0.99`. A built-in tag the metric's samples never carry
 * (`checks{status=200}`) is refused here; user tag keys and tag values are judged against the
 * configuration (schema/threshold-rules.ts), which knows its endpoints, checks and tags.
 * The k6 spellings (k6-threshold-names.ts) are read as barrage's: the spec's `expression` is the
 * text with them rewritten (`http_reqs:count` → `http_requests:count`), shown so everywhere, and
 * `aliases` lists each rewrite; k6 metrics barrage does not measure are refused with the reason.
 */
import {
  AGGREGATES,
  BUILTIN_METRICS,
  isBuiltinMetric,
  isBuiltinTag,
  TAG_KEY,
  type MetricDeclaration,
} from '../../model/metrics/metric-registry.js';
import type {
  RelativeLimit,
  ThresholdAlias,
  ThresholdOperator,
  ThresholdSpec,
} from '../../model/plan/threshold-spec.js';
import { closest } from './did-you-mean.js';
import { charAt, grammarError, type GrammarError } from './grammar-error.js';
import { aggregateAlias, k6OnlyMetric } from './k6-threshold-names.js';
import { err, ok, type Result } from '../result.js';

const OPERATORS: readonly ThresholdOperator[] = ['<', '<=', '>', '>=', '=='];
/** Operators people write by habit, mapped to ours. */
const OPERATOR_HINTS: Readonly<Record<string, string>> = {
  '=': '==',
  '===': '==',
  '=>': '>=',
  '=<': '<=',
};
const OPERATOR_CHARS = '<>=!';
/** A number without its sign: digits, a fraction, an exponent. */
const UNSIGNED = String.raw`\d+(?:\.\d+)?(?:[eE][+-]?\d+)?`;
const VALUE = new RegExp(`^-?${UNSIGNED}$`);
const BASELINE = 'baseline';
/** What may follow `baseline`: a factor, or a number added or taken away. */
const MODIFIER = new RegExp(String.raw`^([*+-])\s*(${UNSIGNED})$`);
const PERCENTILE = /^p(\d+(?:\.\d+)?)$/;
const EXAMPLE = 'http_req_duration:p95 < 300';

/** A piece of the expression and where it starts. */
interface Slice {
  readonly text: string;
  readonly start: number;
}

/** The expression cut into its parts by scanThreshold(), nothing judged yet. */
interface Scanned {
  /** The whole expression. */
  readonly text: string;
  readonly metric: Slice;
  /** Text between the braces; undefined when there are no braces. */
  readonly tags: Slice | undefined;
  readonly tagsClosed: boolean;
  /** Index of the ":" after metric and tags, or -1. */
  readonly colon: number;
  readonly aggregate: Slice;
  readonly operator: Slice;
  readonly value: Slice;
  readonly trailing: Slice;
}

interface FailOptions {
  readonly allowed?: readonly string[];
  readonly guess?: string | undefined;
}

type Fail = (
  part: string,
  position: number,
  problem: string,
  options?: FailOptions,
) => GrammarError;

/** Custom metrics a configuration declares, by name. */
export type DeclaredMetrics = Readonly<Record<string, MetricDeclaration>>;

/**
 * Parses `<metric>[{tag=value,…}]:<aggregate> <op> <number>` into a ThresholdSpec; `declared`
 * adds the configuration's custom metrics to the built-in ones.
 */
export function parseThreshold(
  expression: string,
  declared: DeclaredMetrics = {},
): Result<ThresholdSpec, GrammarError> {
  const fail: Fail = (part, position, problem, options) =>
    grammarError({ grammar: 'threshold', input: expression, part, position, problem, ...options });
  const scanned = scanThreshold(expression);
  const metric = parseMetric(scanned, declared, fail);
  if (!metric.ok) return metric;
  const info = declarationOf(metric.value, declared);
  const tags = parseTags(scanned, metric.value, info, fail);
  if (!tags.ok) return tags;
  if (scanned.colon < 0) return err(missingColon(expression, scanned, fail));
  const aggregate = parseAggregate(scanned, metric.value, info, fail);
  if (!aggregate.ok) return aggregate;
  const operator = parseOperator(scanned, fail);
  if (!operator.ok) return operator;
  const relative = scanned.value.text.startsWith(BASELINE)
    ? parseRelative(scanned, fail)
    : undefined;
  if (relative !== undefined && !relative.ok) return relative;
  const expected = relative === undefined ? parseValue(scanned, fail) : ok(0);
  if (!expected.ok) return expected;
  const { trailing, value } = scanned;
  if (relative === undefined && trailing.text !== '') {
    const hint = /^[\p{L}%]+$/u.test(trailing.text)
      ? `; write the number alone: ${unitWords(info, aggregate.value.name)}`
      : '';
    return err(
      fail(
        'trailing',
        trailing.start,
        `unexpected "${trailing.text}" after the value "${value.text}"${hint}`,
      ),
    );
  }
  const percentile = aggregate.value.percentile;
  const aliases: ThresholdAlias[] = [];
  if (metric.value !== scanned.metric.text)
    aliases.push({ written: scanned.metric.text, as: metric.value });
  if (aggregate.value.name !== scanned.aggregate.text)
    aliases.push({ written: scanned.aggregate.text, as: aggregate.value.name });
  return ok({
    expression: normalized(scanned, metric.value, aggregate.value.name),
    ...(aliases.length === 0 ? {} : { aliases }),
    metric: metric.value,
    tags: tags.value,
    aggregate: aggregate.value.name,
    ...(percentile === undefined ? {} : { percentile }),
    operator: operator.value,
    expected: expected.value,
    ...(relative === undefined ? {} : { relative: relative.value }),
  });
}

/** `baseline`, then at most one modifier: `* 1.10`, `+ 20`, `- 0.01` (spaces optional). */
function parseRelative(scanned: Scanned, fail: Fail): Result<RelativeLimit, GrammarError> {
  const start = scanned.value.start + BASELINE.length;
  const tail = scanned.text.slice(start).trim();
  if (tail === '') return ok({ factor: 1, offset: 0 });
  const modifier = MODIFIER.exec(tail);
  if (modifier === null)
    return err(
      fail(
        'value',
        start,
        `after "baseline" write "* <factor>", "+ <number>" or "- <number>" (e.g. "baseline * 1.10"), not "${tail}"`,
      ),
    );
  const [, sign, number] = modifier;
  const value = Number(number);
  if (!Number.isFinite(value))
    return err(fail('value', start, `the number "${number}" is too large`));
  return ok(
    sign === '*'
      ? { factor: value, offset: 0 }
      : { factor: 1, offset: sign === '+' ? value : -value },
  );
}

/** The expression with the metric and aggregate spelt barrage's way, the rest as written. */
function normalized(scanned: Scanned, metric: string, aggregate: string): string {
  const { text, metric: m, aggregate: a } = scanned;
  const end = a.start + a.text.length;
  const middle = text.slice(m.start + m.text.length, a.start);
  return `${text.slice(0, m.start)}${metric}${middle}${aggregate}${text.slice(end)}`;
}

/** Cuts the expression at the boundaries the grammar fixes; never fails, judges nothing. */
function scanThreshold(text: string): Scanned {
  let i = skipSpace(text, 0);
  const metric = readUntil(
    text,
    i,
    (c) => c === '{' || c === ':' || isOperatorChar(c) || isSpace(c),
  );
  i += metric.text.length;
  let tags: Slice | undefined;
  let tagsClosed = true;
  if (text[i] === '{') {
    const close = closingBrace(text, i + 1);
    tagsClosed = close >= 0;
    const end = tagsClosed ? close : text.length;
    tags = { text: text.slice(i + 1, end), start: i + 1 };
    i = tagsClosed ? end + 1 : end;
  }
  const colon = text[i] === ':' ? i : -1;
  if (colon >= 0) i++;
  const aggregate = readUntil(text, i, (c) => isOperatorChar(c) || isSpace(c));
  i = skipSpace(text, i + aggregate.text.length);
  const operator = readUntil(text, i, (c) => !isOperatorChar(c));
  i = skipSpace(text, i + operator.text.length);
  const value = readUntil(text, i, isSpace);
  i = skipSpace(text, i + value.text.length);
  const trailing = { text: text.slice(i).trimEnd(), start: i };
  return { text, metric, tags, tagsClosed, colon, aggregate, operator, value, trailing };
}

/** A metric's declaration: built-in, else declared (parseMetric made sure it is one). */
function declarationOf(name: string, declared: DeclaredMetrics): MetricDeclaration {
  return isBuiltinMetric(name) ? BUILTIN_METRICS[name] : declared[name]!;
}

/** The metric must be built in or declared (own keys only: "constructor" is not a metric). */
function parseMetric(
  scanned: Scanned,
  declared: DeclaredMetrics,
  fail: Fail,
): Result<string, GrammarError> {
  const { text, start } = scanned.metric;
  const names = [...Object.keys(BUILTIN_METRICS), ...Object.keys(declared)];
  if (isBuiltinMetric(text) || Object.hasOwn(declared, text)) return ok(text);
  const k6Only = k6OnlyMetric(text);
  if (k6Only !== undefined) {
    const problem = `"${text}" is a k6 metric with no barrage equivalent: ${k6Only}`;
    return err(fail('metric', start, problem, { allowed: names }));
  }
  if (text === '') {
    const problem = `a metric name is required at the start, such as ${EXAMPLE}`;
    return err(fail('metric', start, problem, { allowed: names }));
  }
  const prefix = names.find((name) => text.startsWith(name));
  const hint = prefix === undefined ? '' : `; a ":" is missing after "${prefix}"`;
  return err(
    fail('metric', start, `unknown metric "${text}"${hint}`, {
      allowed: names,
      guess: closest(text, names),
    }),
  );
}

/**
 * Tags are `key=value` pairs, comma-separated, each key once. A built-in key must be one the
 * metric's samples carry; a quoted value may hold `,` `=` `}` (`\"` and `\\` escape).
 */
function parseTags(
  scanned: Scanned,
  metric: string,
  info: MetricDeclaration,
  fail: Fail,
): Result<Readonly<Record<string, string>>, GrammarError> {
  const tags: Record<string, string> = {};
  const slice = scanned.tags;
  if (slice === undefined) return ok(tags);
  const brace = slice.start - 1;
  const own = info.tags;
  if (!scanned.tagsClosed)
    return err(fail('tag', brace, `"{" is never closed; write ${metric}{${own[0]}=name}:…`));
  let at = slice.start;
  const end = slice.start + slice.text.length;
  for (;;) {
    const equals = readUntil(scanned.text, at, (c) => c === '=' || c === ',' || c === '}');
    const key = equals.text;
    const keyEnd = at + key.length;
    if (key === '')
      return err(fail('tag', at, `empty tag; write {${own[0]}=name}`, { allowed: own }));
    if (key.trim() !== key) {
      const problem = `spaces are not allowed around the tag key "${key.trim()}"`;
      return err(fail('tag', at, problem, { guess: closest(key.trim(), own) }));
    }
    if (!TAG_KEY.test(key))
      return err(fail('tag', at, `"${key}" is not a tag key (letters, digits, _ . -)`));
    if ((isBuiltinTag(key) || !info.userTags) && !(own as readonly string[]).includes(key)) {
      const problem = `${metric} samples carry no "${key}" tag`;
      return err(fail('tag', at, problem, { allowed: own, guess: closest(key, own) }));
    }
    if (scanned.text[keyEnd] !== '=')
      return err(fail('tag', at, `the tag "${key}" needs a value: write ${key}=name`));
    const value = tagValue(scanned.text, keyEnd + 1, end, key, fail);
    if (!value.ok) return value;
    if (Object.hasOwn(tags, key)) return err(fail('tag', at, `the tag "${key}" appears twice`));
    tags[key] = value.value.text;
    at = value.value.next;
    if (at >= end) return ok(tags);
    at++;
  }
}

/** A tag's value from `start` (quoted or bare) and where the next tag starts (its ","). */
function tagValue(
  text: string,
  start: number,
  end: number,
  key: string,
  fail: Fail,
): Result<{ readonly text: string; readonly next: number }, GrammarError> {
  if (text[start] === '"') {
    let value = '';
    let i = start + 1;
    for (; i < end && text[i] !== '"'; i++) value += text[i] === '\\' ? text[++i] : text[i];
    if (i >= end)
      return err(fail('tag', start, `the quoted value of tag "${key}" is never closed`));
    if (value === '') return err(fail('tag', start, `the tag "${key}" has an empty value`));
    if (i + 1 < end && text[i + 1] !== ',')
      return err(fail('tag', i + 1, `a "," or "}" must follow the quoted value of tag "${key}"`));
    return ok({ text: value, next: i + 1 });
  }
  const bare = readUntil(text, start, (c) => c === ',' || c === '}');
  const stop = Math.min(start + bare.text.length, end);
  const value = text.slice(start, stop);
  if (value === '') return err(fail('tag', start, `the tag "${key}" has an empty value`));
  const bad = [...value].findIndex((c) => c === '=' || c === '"');
  if (bad >= 0) {
    const c = value[bad]!;
    const problem = `the value of tag "${key}" cannot contain "${c}" unless it is quoted: ${key}="…"`;
    return err(fail('tag', start + bad, problem));
  }
  return ok({ text: value, next: stop });
}

/** Index of the "}" that closes tags opened before `from`, skipping quoted values; -1 if none. */
function closingBrace(text: string, from: number): number {
  let quoted = false;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (quoted && c === '\\') i++;
    else if (c === '"') quoted = !quoted;
    else if (!quoted && c === '}') return i;
  }
  return -1;
}

/** The error for an expression without ":" between the metric (and tags) and the aggregate. */
function missingColon(expression: string, scanned: Scanned, fail: Fail): GrammarError {
  const tags = scanned.tags === undefined ? '' : `{${scanned.tags.text}}`;
  const written = `${scanned.metric.text}${tags}`;
  const at = scanned.metric.start + written.length;
  const next = charAt(expression, at);
  let found = '';
  if (isSpace(next)) found = ' with no space before it';
  else if (next !== '') found = `, found "${next}"`;
  const problem = `a ":" and an aggregate must follow "${written}"${found}, as in ${EXAMPLE}`;
  return fail('aggregate', at, problem);
}

/** The aggregate in barrage's spelling and, for pNN, its percentile. */
interface Aggregate {
  readonly name: string;
  readonly percentile?: number;
}

/** The aggregate must be one the metric supports; trend metrics also take any pNN in (0, 100]. */
function parseAggregate(
  scanned: Scanned,
  metric: string,
  info: MetricDeclaration,
  fail: Fail,
): Result<Aggregate, GrammarError> {
  const { text, start } = scanned.aggregate;
  const trend = info.kind === 'trend';
  const named = info.aggregates ?? AGGREGATES[info.kind];
  const allowed = trend ? [...named, 'pNN (0 < NN <= 100)'] : named;
  if (text === '') {
    const space = isSpace(charAt(scanned.text, start));
    const problem = space
      ? 'no space is allowed after ":"'
      : `an aggregate is required after "${metric}:"`;
    return err(fail('aggregate', start, problem, { allowed }));
  }
  const name = aggregateAlias(text) ?? text;
  const percentile = PERCENTILE.exec(name);
  if (trend && percentile !== null) {
    const value = Number(percentile[1]);
    if (value > 0 && value <= 100) return ok({ name, percentile: value });
    return err(
      fail('aggregate', start, `the percentile in "${text}" must be above 0 and at most 100`),
    );
  }
  if (named.includes(name)) return ok({ name });
  const guess = closest(text, named);
  return err(
    fail('aggregate', start, `the aggregate "${text}" is not supported by ${metric}`, {
      allowed,
      guess,
    }),
  );
}

/** The operator must be one of < <= > >= ==; habits from other languages get a hint. */
function parseOperator(scanned: Scanned, fail: Fail): Result<ThresholdOperator, GrammarError> {
  const { text, start } = scanned.operator;
  const found = OPERATORS.find((op) => op === text);
  if (found !== undefined) return ok(found);
  if (text === '') {
    const next = charAt(scanned.text, start);
    const after = `after "${scanned.text.slice(0, scanned.aggregate.start + scanned.aggregate.text.length).trim()}"`;
    const problem =
      next === ''
        ? `an operator is required ${after}`
        : `an operator is required ${after}, found "${next}"`;
    return err(fail('operator', start, problem, { allowed: OPERATORS }));
  }
  const notEqual = text === '!=' || text === '<>' ? '; "not equal" is not supported' : '';
  return err(
    fail('operator', start, `unknown operator "${text}"${notEqual}`, {
      allowed: OPERATORS,
      guess: OPERATOR_HINTS[text],
    }),
  );
}

/** The value is a plain decimal number (sign, fraction and exponent allowed), finite, no unit. */
function parseValue(scanned: Scanned, fail: Fail): Result<number, GrammarError> {
  const { text, start } = scanned.value;
  if (text === '') {
    return err(
      fail('value', start, `a number is required after the operator "${scanned.operator.text}"`),
    );
  }
  if (!VALUE.test(text)) {
    const unit = /^-?\d+(\.\d+)?[\p{L}%]+$/u.test(text)
      ? '; write the number alone, without a unit'
      : '';
    return err(fail('value', start, `the value "${text}" is not a number${unit}`));
  }
  const value = Number(text);
  if (!Number.isFinite(value)) return err(fail('value', start, `the value "${text}" is too large`));
  return ok(value);
}

/** How the expected number of a metric and aggregate is measured, for hints. */
function unitWords(info: MetricDeclaration, aggregate: string): string {
  if (info.kind === 'trend' || info.kind === 'gauge')
    return info.unit === 'ms' ? 'the value is in milliseconds' : `the value is in ${info.unit}`;
  if (aggregate === 'count') return 'the value is a count';
  if (info.kind === 'counter') return 'the value is per second';
  return 'the value is a ratio from 0 to 1 (0.01 = 1%)';
}

/** Reads from start up to (not including) the first character that stops it, or the end. */
function readUntil(text: string, start: number, stops: (c: string) => boolean): Slice {
  let end = start;
  while (end < text.length && !stops(text[end] ?? '')) end++;
  return { text: text.slice(start, end), start };
}

/** Index of the first non-space character at or after start. */
function skipSpace(text: string, start: number): number {
  let i = start;
  while (i < text.length && isSpace(text[i])) i++;
  return i;
}

/** True for any white space character. */
function isSpace(c: string | undefined): boolean {
  return c !== undefined && c !== '' && /^\s$/u.test(c);
}

/** True for a character that can be part of an operator. */
function isOperatorChar(c: string): boolean {
  return c !== '' && OPERATOR_CHARS.includes(c);
}
