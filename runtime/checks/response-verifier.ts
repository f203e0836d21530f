/**
 * The step of a request's outcome that reads its response beyond the default rule (an endpoint's
 * VerifyPlan: expected statuses and checks), built once per compiled request; an endpoint with
 * neither has none, and its requests pay nothing for it (runtime/worker/iteration.ts #record).
 *
 *   1. expect: a response whose status-derived outcome (success below 400, http_4xx, http_5xx) is
 *      decided by the set instead: in it, a success; outside it, `unexpected_status`. Network
 *      errors and the other kinds (redirects, decoding) stand. Retries have already decided on
 *      the real status (a 503 is retried even when it is expected).
 *   2. extractors, on a success, as without a verifier.
 *   3. checks, when a response came and its body was read (no network error, no decode_error or
 *      body_too_large), whatever its status: each result is counted under its name in the
 *      `checks` metric. A failed check fails the request (`check_failed`) only with
 *      `checksFailRequest`, and only a request that succeeded so far.
 */
import type { CheckPlan, VerifyPlan } from '../../model/plan/check-plan.js';
import type { ExtractorPlan } from '../../model/plan/endpoint-plan.js';
import type { Tags } from '../../model/metrics/metric-registry.js';
import { inStatusSet, type StatusSet } from '../../model/plan/status-set.js';
import type { ErrorKind } from '../../model/errors/error-kinds.js';
import type { Recorder } from '../metrics/recorder.js';
import { ParsedBody, runExtractors } from '../vars/extract.js';
import { compileTemplate, render, type CompiledTemplate } from '../vars/render-template.js';
import type { Random } from '../../model/random.js';
import type { VariableStore } from '../vars/variable-store.js';
import { evaluateCheck } from './evaluate-check.js';

/** What a verifier reads of a request's final response (http/exchange.ts's Exchange is one). */
export interface JudgedResponse {
  readonly status: number;
  /** Raw header names and values, alternating; null when no headers came. */
  readonly headers: Buffer[] | null;
  /** What failed the exchange (an error thrown, or a kind the exchange decided); none: answered. */
  readonly error: unknown;
  readonly failure: ErrorKind | undefined;
  /** The kept body as text, undefined when none was kept. */
  body(): string | undefined;
}

/** Expected statuses, extractors and checks of one endpoint, applied to its final response. */
export class ResponseVerifier {
  readonly #expect: StatusSet | undefined;
  readonly #checks: readonly CheckPlan[];
  /** Each check's text with placeholders, compiled once (undefined: it has none). */
  readonly #texts: readonly (CompiledTemplate | undefined)[];
  readonly #failRequest: boolean;
  /** The tags of its checks' samples: the endpoint's name (its other tags are the run's table). */
  readonly #tags: Tags;

  constructor(
    plan: VerifyPlan,
    private readonly extract: readonly ExtractorPlan[],
    endpoint: string,
  ) {
    this.#tags = Object.freeze({ endpoint });
    this.#expect = plan.expect;
    this.#checks = plan.checks;
    this.#texts = plan.checks.map(({ predicate }) =>
      predicate.op === 'equalsText' || predicate.op === 'containsText'
        ? compileTemplate(predicate.text)
        : undefined,
    );
    this.#failRequest = plan.checksFailRequest;
  }

  /**
   * The request's outcome from its final response: `kind` as the default rule classified it
   * (undefined: a success), the exchange, its service time; checks are recorded on `recorder`.
   */
  judge(
    kind: ErrorKind | undefined,
    exchange: JudgedResponse,
    durationUs: number,
    vars: VariableStore,
    random: Random,
    recorder: Recorder,
  ): ErrorKind | undefined {
    const answered = exchange.error === undefined && exchange.failure === undefined;
    let outcome = kind;
    if (
      this.#expect !== undefined &&
      answered &&
      (kind === undefined || kind === 'http_4xx' || kind === 'http_5xx')
    )
      outcome = inStatusSet(this.#expect, exchange.status) ? undefined : 'unexpected_status';
    const body = new ParsedBody(exchange.body());
    if (outcome === undefined && this.extract.length > 0)
      outcome = runExtractors(this.extract, body, exchange.headers, vars, random);
    if (!answered || this.#checks.length === 0) return outcome;
    const response = {
      status: exchange.status,
      headers: exchange.headers,
      body,
      durationMs: durationUs / 1000,
    };
    let failed = false;
    for (let i = 0; i < this.#checks.length; i++) {
      const check = this.#checks[i]!;
      const text = this.#texts[i];
      const pass = evaluateCheck(
        check,
        response,
        text === undefined ? undefined : render(text, vars, random),
      );
      recorder.recordCheck(check.name, pass, this.#tags);
      if (!pass) failed = true;
    }
    return failed && this.#failRequest && outcome === undefined ? 'check_failed' : outcome;
  }
}
