/**
 * The rendezvous's flags, read before the configuration: `--coordinator HOST:PORT` (where the
 * first segment listens, and the others connect), and `--segment auto/n`, whose index is
 * JOB_COMPLETION_INDEX + 1 (the 0-based index Kubernetes gives each pod of an Indexed Job).
 */
import { parseDuration } from '../../dsl/grammar/duration.js';
import { ConfigError, type ConfigIssue } from '../../dsl/issues.js';

/** Where the first segment listens. */
export interface CoordinatorAddress {
  readonly host: string;
  readonly port: number;
}

/** How the segments meet. */
export interface Rendezvous {
  readonly address: CoordinatorAddress;
  readonly readyTimeoutMs: number;
}

/** How long the segments wait for each other by default (an image pull, a node scaled up). */
const DEFAULT_READY_TIMEOUT_MS = 5 * 60_000;

/** The flags of `run` this reads. */
export interface RendezvousFlags {
  readonly segment?: string | undefined;
  readonly startAt?: string | undefined;
  readonly coordinator?: string | undefined;
  readonly readyTimeout?: string | undefined;
}

/**
 * The segment (`auto/n` resolved) and the rendezvous, if `--coordinator` asks for one; throws a
 * ConfigError naming each wrong flag.
 */
export function readRendezvousFlags(
  flags: RendezvousFlags,
  env: Readonly<Record<string, string | undefined>>,
): { segment: string | undefined; rendezvous: Rendezvous | undefined } {
  const issues: ConfigIssue[] = [];
  const segment = resolveAutoSegment(flags.segment, env);
  if (typeof segment === 'object') issues.push(segment);
  const resolved = typeof segment === 'object' ? undefined : segment;
  if (flags.coordinator === undefined) {
    if (flags.readyTimeout !== undefined)
      issues.push(flagIssue('--ready-timeout', 'it only with --coordinator', 'no --coordinator'));
    if (issues.length > 0) throw new ConfigError(issues);
    return { segment: resolved, rendezvous: undefined };
  }
  const address = parseCoordinator(flags.coordinator);
  if ('code' in address) issues.push(address);
  if (!/^\d+\/([2-9]|\d{2,})$/.test(resolved ?? '') && typeof segment !== 'object')
    issues.push(
      flagIssue(
        '--segment',
        'with --coordinator, a segment i/n or auto/n of n ≥ 2',
        flags.segment === undefined ? 'nothing' : JSON.stringify(flags.segment),
      ),
    );
  if (flags.startAt !== undefined)
    issues.push(
      flagIssue(
        '--start-at',
        'none with --coordinator (the first segment sets the start)',
        flags.startAt,
      ),
    );
  const timeout = parseDuration(flags.readyTimeout ?? '5m');
  if (!timeout.ok || timeout.value <= 0)
    issues.push(
      flagIssue('--ready-timeout', 'a duration such as 5m', JSON.stringify(flags.readyTimeout)),
    );
  if (issues.length > 0 || 'code' in address) throw new ConfigError(issues);
  return {
    segment: resolved,
    rendezvous: {
      address,
      readyTimeoutMs: timeout.ok ? timeout.value : DEFAULT_READY_TIMEOUT_MS,
    },
  };
}

/** The variable an Indexed Job sets in each pod: 0, 1, … n-1. */
export const JOB_COMPLETION_INDEX = 'JOB_COMPLETION_INDEX';

function flagIssue(flag: string, expected: string, actual: string): ConfigIssue {
  return { code: 'invalid_value', source: { kind: 'flag', flag }, path: [], expected, actual };
}

/** `host:port` or `[v6]:port`, or the issue naming the flag. */
export function parseCoordinator(text: string): CoordinatorAddress | ConfigIssue {
  const match = /^(?:\[([^\]]+)\]|([^:[\]\s]+)):(\d{1,5})$/.exec(text);
  const port = Number(match?.[3]);
  if (match === null || port < 1 || port > 65_535)
    return flagIssue(
      '--coordinator',
      'HOST:PORT of the first segment, e.g. barrage-0.barrage:7878',
      JSON.stringify(text),
    );
  return { host: match[1] ?? match[2]!, port };
}

/**
 * `--segment auto/n` as `i/n` from JOB_COMPLETION_INDEX; any other value unchanged; or the
 * issue when the variable is unset or out of range.
 */
export function resolveAutoSegment(
  segment: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined | ConfigIssue {
  const auto = /^auto\/([1-9]\d*)$/.exec(segment ?? '');
  if (auto === null) return segment;
  const count = Number(auto[1]);
  const given = env[JOB_COMPLETION_INDEX];
  const index = Number(given);
  if (given === undefined || !/^\d+$/.test(given) || index >= count)
    return flagIssue(
      '--segment',
      `auto/${count} with ${JOB_COMPLETION_INDEX} set to 0…${count - 1} (an Indexed Job sets it)`,
      given === undefined ? `${JOB_COMPLETION_INDEX} unset` : `${JOB_COMPLETION_INDEX}=${given}`,
    );
  return `${index + 1}/${count}`;
}
