/**
 * k6's flags that barrage spells otherwise, each answered with barrage's flag: a k6 user's
 * `--vus 10` or `-i 100` gets the exact flag to type instead of an unknown-flag guess. (k6's
 * `-e KEY=VALUE`, `-o`/`--out` and `-d`/`--duration` are barrage's too, with the same meaning.)
 */

const K6_FLAGS: Readonly<Record<string, string>> = {
  '--vus': "k6's --vus is barrage's -c/--concurrency (e.g. -c 10)",
  '-u': "k6's -u (--vus) is barrage's -c/--concurrency (e.g. -c 10)",
  '--iterations': "k6's --iterations is barrage's -n/--requests (e.g. -n 100)",
  '-i': "k6's -i (--iterations) is barrage's -n/--requests (e.g. -n 100)",
  '--stage':
    "k6's --stage is a ramping-vus scenario's stages in barrage (docs/from-k6.md), or pattern for a rate",
  '-s': "k6's -s (--stage) is a ramping-vus scenario's stages in barrage (docs/from-k6.md)",
  '--summary-export': "k6's --summary-export is barrage's --json FILE",
  '--insecure-skip-tls-verify': "k6's --insecure-skip-tls-verify is barrage's --insecure",
  '--rps': "k6's --rps is barrage's -r/--rate",
  '--max-redirects': 'barrage sets it in the configuration: max_redirects',
  '--user-agent': 'barrage sets it in the configuration: user_agent',
};

/** The answer for a flag barrage does not know, when k6 has it. */
export function k6FlagHint(flag: string): string | undefined {
  return Object.hasOwn(K6_FLAGS, flag) ? K6_FLAGS[flag] : undefined;
}
