/**
 * The work of `barrage k8s` (commands/k8s.ts declares it): read the flags, load and check the
 * configuration as one segment of N, gather its files and print the manifests as YAML.
 */
import { stringify } from 'yaml';
import { parseDuration } from '../../dsl/grammar/duration.js';
import { ConfigError, type ConfigIssue } from '../../dsl/issues.js';
import { loadPlan } from '../../dsl/load-plan.js';
import type { BarrageContext } from '../context.js';
import { ExitCode } from '../exit-code.js';
import { toFlagLayer } from '../flags.js';
import { formatWarnings } from '../render/user-errors.js';
import { VERSION } from '../version.js';
import { buildManifests, type ManifestOptions } from './k8s-manifests.js';
import { configPath, shippedFiles } from './shipped-files.js';

/** The flags of `barrage k8s`, as given. */
export interface K8sFlags {
  readonly file: string;
  readonly segments: string;
  readonly image?: string | undefined;
  readonly namespace?: string | undefined;
  readonly name?: string | undefined;
  readonly port?: string | undefined;
  readonly cpu?: string | undefined;
  readonly memory?: string | undefined;
  readonly cpuLimit?: string | undefined;
  readonly memoryLimit?: string | undefined;
  readonly deadline?: string | undefined;
  readonly readyTimeout?: string | undefined;
  readonly includes?: readonly string[] | undefined;
}

/** Kubernetes's quantity syntax (resource.Quantity). */
const QUANTITY = /^[+]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+|[KMGTPE]i|[numkMGTPE])?$/;
/** A DNS label short enough for `NAME-index` pod names. */
const NAME = /^[a-z]([-a-z0-9]{0,40}[a-z0-9])?$/;
/** The `node` user of node images, which the root Dockerfile runs as. */
const IMAGE_UID = 1000;

/** The flags checked, every problem at once (ConfigError). */
function readFlags(flags: K8sFlags): Omit<ManifestOptions, 'config' | 'files'> {
  const issues: ConfigIssue[] = [];
  const check = <T>(flag: string, value: T | undefined, ok: boolean, expected: string): void => {
    if (!ok)
      issues.push({
        code: 'invalid_value',
        source: { kind: 'flag', flag },
        path: [],
        expected,
        actual: JSON.stringify(value),
      });
  };
  const segments = Number(flags.segments);
  check(
    '--segments',
    flags.segments,
    /^\d+$/.test(flags.segments) && segments >= 2 && segments <= 1024,
    'a whole number of pods from 2 to 1024',
  );
  const name = flags.name ?? 'barrage';
  check('--name', name, NAME.test(name), 'a DNS label of at most 42 characters (a-z, 0-9, -)');
  const port = Number(flags.port ?? '7878');
  check(
    '--port',
    flags.port,
    Number.isInteger(port) && port >= 1 && port <= 65_535,
    'a port from 1 to 65535',
  );
  const quantities = {
    '--cpu': flags.cpu ?? '1',
    '--memory': flags.memory ?? '1Gi',
    '--cpu-limit': flags.cpuLimit,
    '--memory-limit': flags.memoryLimit,
  };
  for (const [flag, value] of Object.entries(quantities))
    check(
      flag,
      value,
      value === undefined || QUANTITY.test(value),
      'a Kubernetes quantity such as 500m, 2 or 1Gi',
    );
  const deadline = parseDuration(flags.deadline ?? '1h');
  check(
    '--deadline',
    flags.deadline,
    deadline.ok && deadline.value >= 1000,
    'a duration of at least 1s, such as 1h',
  );
  const ready = parseDuration(flags.readyTimeout ?? '5m');
  check(
    '--ready-timeout',
    flags.readyTimeout,
    ready.ok && ready.value > 0,
    'a duration such as 5m',
  );
  if (issues.length > 0) throw new ConfigError(issues);
  return {
    name,
    namespace: flags.namespace,
    image: flags.image ?? `barrage:${VERSION}`,
    segments,
    port,
    cpu: quantities['--cpu'],
    memory: quantities['--memory'],
    cpuLimit: flags.cpuLimit,
    memoryLimit: flags.memoryLimit ?? quantities['--memory'],
    deadlineSeconds: Math.ceil((deadline.ok ? deadline.value : 3_600_000) / 1000),
    readyTimeout: flags.readyTimeout ?? '5m',
    uid: IMAGE_UID,
  };
}

/** Prints the manifests; returns the exit code. Throws ConfigError for bad flags or files. */
export async function printManifests(context: BarrageContext, flags: K8sFlags): Promise<number> {
  const read = readFlags(flags);
  const layer = toFlagLayer({ segment: `1/${read.segments}` });
  const loaded = await loadPlan({
    cwd: context.cwd,
    env: context.env,
    execPath: context.execPath,
    configFile: flags.file,
    flags: layer.layer,
    flagIssues: layer.issues,
    userAgent: `barrage/${VERSION}`,
    fallbackSeed: 1,
    typecheck: false,
  });
  const warnings = loaded.ok ? loaded.value.warnings : loaded.error.warnings;
  if (warnings.length > 0) context.stderr.write(formatWarnings(warnings));
  if (!loaded.ok) throw new ConfigError(loaded.error.issues);
  const options: ManifestOptions = {
    ...read,
    config: configPath(loaded.value, context.cwd, flags.file),
    files: shippedFiles(loaded.value, context.cwd, flags.file, flags.includes ?? []),
  };
  const first = `batch.kubernetes.io/job-name=${read.name},batch.kubernetes.io/job-completion-index=0`;
  const header = [
    `# barrage k8s: a distributed run of ${options.config} in ${read.segments} pods.`,
    '#   kubectl apply -f THIS-FILE',
    `#   kubectl logs -f -l ${first}   # the first pod: the whole run's report`,
    `#   kubectl get job ${read.name}   # Complete: the run passed; Failed: see that log`,
    `#   kubectl delete -f THIS-FILE   # before the next run (a Job's template cannot change)`,
    '',
  ].join('\n');
  context.stdout.write(
    header +
      buildManifests(options)
        .map(
          (o) =>
            `---\n${stringify(o, { lineWidth: 0, aliasDuplicateObjects: false, singleQuote: true })}`,
        )
        .join(''),
  );
  return ExitCode.Ok;
}
