/**
 * The one writer of the HTTP debug log (docs/configuration.md, HTTP debug log): the records every
 * segment sends (already at most `per_second` a second each) are redacted (render/redact-exchange.ts)
 * and written one NDJSON line each, at most `per_second` lines a second for the process and
 * `max_bytes` in all; past either, lines are dropped and counted. A file is opened before any
 * traffic, for appending (each line one write(2) with O_APPEND, so lines of processes sharing the
 * file never interleave), created with mode 0600; a file that cannot be opened is a configuration
 * problem naming the flag or key that set it. `-` writes to stderr.
 */
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ConfigError } from '../dsl/issues.js';
import type { Loaded } from '../dsl/load-plan.js';
import { HTTP_DEBUG_STDERR, type HttpDebugPlan } from '../model/plan/http-debug-plan.js';
import { PerSecondBound } from '../runtime/debug/per-second-bound.js';
import type { ExchangeRecord } from '../model/exchange-record.js';
import type { HttpDebugCounts } from '../runtime/raw-result.js';
import { fileError } from './report-files.js';
import type { Redactor } from './render/redact.js';
import { redactExchange } from './render/redact-exchange.js';

/** What the log needs from the run. */
export interface HttpDebugLogDeps {
  readonly cwd: string;
  readonly redactor: Redactor;
  /**
   * Writes a line on stderr, or holds it while the dashboard owns the terminal; false when the
   * line was dropped instead (the lines held are bounded).
   */
  readonly stderr: (line: string) => boolean;
  /** A line for the user, once, when the file stops taking lines. */
  readonly warn: (text: string) => void;
  readonly nowMs: () => number;
}

/** Writes the selected requests; counts what it wrote and what it dropped. */
export class HttpDebugLog {
  #written = 0;
  #dropped = 0;
  #bytes = 0;
  /** The file's descriptor; undefined for stderr. */
  #fd: number | undefined;
  /** A write failed (a full disk): every later line is dropped. */
  #failed = false;
  readonly #bound: PerSecondBound;

  private constructor(
    private readonly plan: HttpDebugPlan,
    private readonly deps: HttpDebugLogDeps,
    fd: number | undefined,
  ) {
    this.#fd = fd;
    this.#bound = new PerSecondBound(plan.perSecond);
  }

  /** Opens the log of `loaded`'s plan; throws a ConfigError when its file cannot be opened. */
  static open(loaded: Loaded, plan: HttpDebugPlan, deps: HttpDebugLogDeps): HttpDebugLog {
    if (plan.file === HTTP_DEBUG_STDERR) return new HttpDebugLog(plan, deps, undefined);
    const path = resolve(deps.cwd, plan.file);
    try {
      mkdirSync(dirname(path), { recursive: true });
      return new HttpDebugLog(plan, deps, openSync(path, 'a', 0o600));
    } catch (error) {
      const key = ['http_debug', 'file'];
      throw new ConfigError([
        {
          code: 'invalid_value',
          source: loaded.provenance.sourceOf(key),
          path: key,
          expected: 'a file barrage can write (the HTTP debug log)',
          actual: `${deps.redactor.text(JSON.stringify(plan.file))}: ${fileError(error)}`,
        },
      ]);
    }
  }

  /** One record; dropped when past a bound. */
  write(record: ExchangeRecord): void {
    if (this.#failed || !this.#bound.take(this.deps.nowMs())) {
      this.#dropped++;
      return;
    }
    const line = JSON.stringify(redactExchange(record, this.deps.redactor)) + '\n';
    const bytes = Buffer.byteLength(line);
    if (this.#bytes + bytes > this.plan.maxBytes) {
      this.#dropped++;
      return;
    }
    if (this.plan.file === HTTP_DEBUG_STDERR) {
      if (!this.deps.stderr(line)) {
        this.#dropped++;
        return;
      }
    } else if (!this.#append(line)) return;
    this.#bytes += bytes;
    this.#written++;
  }

  /** What was written and dropped (the segments' drops are added by the caller). */
  counts(): HttpDebugCounts {
    return { written: this.#written, dropped: this.#dropped };
  }

  /** Closes the file. */
  close(): void {
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
  }

  /** Appends a line; a failed write (a full disk) ends the file: later lines are dropped. */
  #append(line: string): boolean {
    try {
      writeSync(this.#fd!, line);
      return true;
    } catch (error) {
      this.#dropped++;
      this.#failed = true;
      this.close();
      this.deps.warn(
        `could not write the HTTP debug log to ${this.plan.file}: ${fileError(error)}`,
      );
      return false;
    }
  }
}
