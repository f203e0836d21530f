/**
 * The Kubernetes objects of a distributed run (docs/distributed.md, Kubernetes): a ConfigMap of
 * the configuration's files, a headless Service that gives each pod a stable name (the first
 * pod's is the coordinator's address), and an Indexed Job of n pods, each running
 * `barrage run … --segment auto/n --coordinator NAME-0.NAME:PORT` (rendezvous-run.ts). Plain
 * objects, as `kubectl apply` reads them; the tests check them against the API's schemas.
 */

/** A file of the ConfigMap: its path under the mount, its content. */
export interface ShippedFile {
  readonly path: string;
  readonly content: Buffer;
}

/** What the manifests are made of (`barrage k8s` flags). */
export interface ManifestOptions {
  readonly name: string;
  readonly namespace: string | undefined;
  readonly image: string;
  readonly segments: number;
  readonly port: number;
  /** The configuration file's path under the mount. */
  readonly config: string;
  readonly files: readonly ShippedFile[];
  readonly cpu: string;
  readonly memory: string;
  readonly cpuLimit: string | undefined;
  readonly memoryLimit: string;
  readonly deadlineSeconds: number;
  readonly readyTimeout: string;
  /** The user the image runs as (the root Dockerfile's `node` user). */
  readonly uid: number;
}

/** Where the ConfigMap is mounted, read-only. */
export const CONFIG_MOUNT = '/barrage';
/** The pods' working directory (an emptyDir): report files asked for are written there. */
const WORK_DIR = '/results';

/** The three objects, in the order `kubectl apply` should create them. */
export function buildManifests(options: ManifestOptions): Record<string, unknown>[] {
  return [configMap(options), service(options), job(options)];
}

function metadata(options: ManifestOptions, name = options.name): Record<string, unknown> {
  return {
    name,
    ...(options.namespace === undefined ? {} : { namespace: options.namespace }),
    labels: labels(options),
  };
}

function labels(options: ManifestOptions): Record<string, string> {
  return { 'app.kubernetes.io/name': 'barrage', 'app.kubernetes.io/instance': options.name };
}

/** A ConfigMap key for a path (keys allow [-._a-zA-Z0-9]); the volume maps it back. */
export function configKey(path: string): string {
  return path.replace(/[^-._a-zA-Z0-9]/g, '_');
}

function configMap(options: ManifestOptions): Record<string, unknown> {
  const data: Record<string, string> = {};
  const binaryData: Record<string, string> = {};
  for (const file of options.files) {
    const text = new TextDecoder('utf-8', { fatal: false }).decode(file.content);
    if (Buffer.from(text, 'utf8').equals(file.content)) data[configKey(file.path)] = text;
    else binaryData[configKey(file.path)] = file.content.toString('base64');
  }
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: metadata(options),
    data,
    ...(Object.keys(binaryData).length === 0 ? {} : { binaryData }),
  };
}

function service(options: ManifestOptions): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: metadata(options),
    spec: {
      // Headless: a DNS name per pod (NAME-k.NAME), published before the pods are ready.
      clusterIP: 'None',
      publishNotReadyAddresses: true,
      selector: labels(options),
      ports: [
        { name: 'rendezvous', port: options.port, targetPort: options.port, protocol: 'TCP' },
      ],
    },
  };
}

/** The pod's command: the same for every pod, the index from JOB_COMPLETION_INDEX. */
export function podCommand(options: ManifestOptions): string[] {
  return [
    'barrage',
    'run',
    `${CONFIG_MOUNT}/${options.config}`,
    '--segment',
    `auto/${options.segments}`,
    '--coordinator',
    `${options.name}-0.${options.name}:${options.port}`,
    '--ready-timeout',
    options.readyTimeout,
    '--no-dashboard',
  ];
}

function job(options: ManifestOptions): Record<string, unknown> {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: metadata(options),
    spec: {
      completionMode: 'Indexed',
      completions: options.segments,
      parallelism: options.segments,
      // A retried pod would send its share twice: no retries, a deadline instead.
      backoffLimit: 0,
      activeDeadlineSeconds: options.deadlineSeconds,
      ttlSecondsAfterFinished: 86_400,
      template: { metadata: { labels: labels(options) }, spec: podSpec(options) },
    },
  };
}

function podSpec(options: ManifestOptions): Record<string, unknown> {
  const selector = { matchLabels: labels(options) };
  return {
    subdomain: options.name,
    restartPolicy: 'Never',
    securityContext: {
      runAsNonRoot: true,
      runAsUser: options.uid,
      runAsGroup: options.uid,
      seccompProfile: { type: 'RuntimeDefault' },
    },
    topologySpreadConstraints: [
      {
        maxSkew: 1,
        topologyKey: 'kubernetes.io/hostname',
        whenUnsatisfiable: 'ScheduleAnyway',
        labelSelector: selector,
      },
    ],
    affinity: {
      podAntiAffinity: {
        preferredDuringSchedulingIgnoredDuringExecution: [
          {
            weight: 100,
            podAffinityTerm: { topologyKey: 'kubernetes.io/hostname', labelSelector: selector },
          },
        ],
      },
    },
    containers: [container(options)],
    volumes: [
      {
        name: 'config',
        configMap: {
          name: options.name,
          items: options.files.map((f) => ({ key: configKey(f.path), path: f.path })),
        },
      },
      { name: 'results', emptyDir: {} },
      { name: 'tmp', emptyDir: {} },
    ],
  };
}

function container(options: ManifestOptions): Record<string, unknown> {
  return {
    name: 'barrage',
    image: options.image,
    command: podCommand(options),
    workingDir: WORK_DIR,
    ports: [{ name: 'rendezvous', containerPort: options.port, protocol: 'TCP' }],
    resources: {
      requests: { cpu: options.cpu, memory: options.memory },
      limits: {
        memory: options.memoryLimit,
        ...(options.cpuLimit === undefined ? {} : { cpu: options.cpuLimit }),
      },
    },
    securityContext: {
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
    },
    volumeMounts: [
      { name: 'config', mountPath: CONFIG_MOUNT, readOnly: true },
      { name: 'results', mountPath: WORK_DIR },
      { name: 'tmp', mountPath: '/tmp' },
    ],
  };
}
