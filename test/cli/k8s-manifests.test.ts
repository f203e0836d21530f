// `barrage k8s` (docs/distributed.md, Kubernetes): the manifests it prints are checked against
// the Kubernetes API's schemas as kubernetes-models carries them: each object's validate() (types,
// enums, formats, required fields) and, for unknown fields, the TypeScript types generated from
// the same OpenAPI schemas, whose excess-property check catches a misspelt field at any depth.
import t from 'tap';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { parseAllDocuments } from 'yaml';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Service } from 'kubernetes-models/v1/Service';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { runInProcess } from '../helpers/in-process-cli.js';

type Manifest = Record<string, unknown> & { kind: string };

const TYPES: Record<string, [string, string]> = {
  ConfigMap: ['IConfigMap', 'kubernetes-models/v1/ConfigMap'],
  Service: ['IService', 'kubernetes-models/v1/Service'],
  Job: ['IJob', 'kubernetes-models/batch/v1/Job'],
};

/**
 * TypeScript's diagnostics for each object typed as its API type (one program for all: it reads
 * the types once), by the object's position in `objects`.
 */
function typeProblems(dir: string, objects: readonly Manifest[]): string[][] {
  const file = join(dir, 'manifests.ts');
  const imports = Object.values(TYPES).map(
    ([type, module]) => `import type { ${type} } from '${module}';`,
  );
  const lines = objects.map(
    (o, i) => `export const o${i}: ${TYPES[o.kind]![0]} = ${JSON.stringify(o)};`,
  );
  writeFileSync(file, [...imports, ...lines].join('\n'));
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    lib: ['lib.es2022.d.ts'],
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
  });
  const problems: string[][] = objects.map(() => []);
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const line = d.file === undefined ? 0 : d.file.getLineAndCharacterOfPosition(d.start ?? 0).line;
    const text = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    (problems[line - imports.length] ?? problems[0]!).push(text);
  }
  return problems;
}

function validate(object: Manifest): void {
  if (object.kind === 'ConfigMap') new ConfigMap(object as never).validate();
  else if (object.kind === 'Service') new Service(object as never).validate();
  else new Job(object as never).validate();
}

t.test('the manifests are valid Kubernetes objects; a misspelt field is caught', async (t) => {
  const dir = t.testdir({
    'load.yaml':
      'target: http://127.0.0.1:9\nrequests: 40\nconcurrency: 4\nfeeder: { file: data/users.csv }\nendpoints: [{ url: "/?u={{u}}" }]\n',
    data: { 'users.csv': 'u\na\nb\n' },
  });
  const printed = await runInProcess(
    [
      'k8s',
      'load.yaml',
      '--segments',
      '4',
      '--namespace',
      'load',
      '--cpu',
      '500m',
      '--memory',
      '256Mi',
      '--cpu-limit',
      '2',
      '--deadline',
      '30m',
    ],
    { cwd: dir },
  );
  t.equal(printed.code, 0, printed.stderr);
  const objects = parseAllDocuments(printed.stdout).map((d) => d.toJS() as Manifest);
  t.same(
    objects.map((o) => o.kind),
    ['ConfigMap', 'Service', 'Job'],
  );
  for (const object of objects) t.doesNotThrow(() => validate(object), `${object.kind} is valid`);
  const misspell = (from: string, to: string): Manifest =>
    JSON.parse(JSON.stringify(objects[2]).replace(`"${from}"`, `"${to}"`)) as Manifest;
  const problems = typeProblems(dir, [
    ...objects,
    misspell('completionMode', 'completionMod'),
    misspell('readOnlyRootFilesystem', 'readOnlyRootFileSystem'),
  ]);
  t.same(problems.slice(0, 3), [[], [], []], 'no field the API does not know');
  t.match(problems[3], [/'"completionMod"' does not exist in type/], 'a misspelt field is caught');
  t.match(problems[4], [/'"readOnlyRootFileSystem"' does not exist in type/], 'at any depth');

  const [configMap, service, job] = objects as [Manifest, Manifest, Manifest];
  t.match(configMap, { data: { 'load.yaml': /feeder/, 'data_users.csv': 'u\na\nb\n' } });
  t.match(service, { spec: { clusterIP: 'None', publishNotReadyAddresses: true } });
  const spec = job.spec as Record<string, unknown>;
  t.match(spec, {
    completionMode: 'Indexed',
    completions: 4,
    parallelism: 4,
    backoffLimit: 0,
    activeDeadlineSeconds: 1800,
  });
  const pod = (spec.template as { spec: Record<string, unknown> }).spec;
  t.match(pod, {
    subdomain: 'barrage',
    securityContext: { runAsNonRoot: true },
    topologySpreadConstraints: [{ topologyKey: 'kubernetes.io/hostname' }],
    affinity: { podAntiAffinity: {} },
    volumes: [
      {
        configMap: {
          items: [{ key: 'load.yaml' }, { key: 'data_users.csv', path: 'data/users.csv' }],
        },
      },
    ],
  });
  t.match(pod.containers, [
    {
      command: [
        'barrage',
        'run',
        '/barrage/load.yaml',
        '--segment',
        'auto/4',
        '--coordinator',
        'barrage-0.barrage:7878',
      ],
      resources: {
        requests: { cpu: '500m', memory: '256Mi' },
        limits: { cpu: '2', memory: '256Mi' },
      },
    },
  ]);

  const wrongValue = { ...job, spec: { ...spec, completionMode: 'indexed' } } as Manifest;
  t.throws(() => validate(wrongValue), /completionMode/, 'a wrong value is caught');
});

t.test('bad flags and files outside the folder are refused, naming them', async (t) => {
  const dir = t.testdir({
    'load.yaml':
      'target: http://127.0.0.1:9\nrequests: 4\nconcurrency: 2\nfeeder: { file: ../users.csv }\n',
    'small.yaml': 'target: http://127.0.0.1:9\nrequests: 4\nconcurrency: 2\n',
  });
  writeFileSync(join(dir, '..', 'users.csv'), 'u\na\n');
  const outside = await runInProcess(['k8s', 'load.yaml', '--segments', '2'], { cwd: dir });
  t.equal(outside.code, 1);
  t.equal(outside.stdout, '');
  t.match(
    outside.stderr,
    /feeder\.file: expected a file inside .* \(the pods mount that folder\), got \.\.\/users\.csv/,
  );
  const flags = await runInProcess(
    ['k8s', 'small.yaml', '--segments', '1', '--memory', '1 GB', '--name', 'Bad_Name'],
    { cwd: dir },
  );
  t.equal(flags.code, 1);
  t.match(flags.stderr, /--segments: expected a whole number of pods from 2 to 1024, got "1"/);
  t.match(
    flags.stderr,
    /--memory: expected a Kubernetes quantity such as 500m, 2 or 1Gi, got "1 GB"/,
  );
  t.match(flags.stderr, /--name: expected a DNS label/);
  const thin = await runInProcess(['k8s', 'small.yaml', '--segments', '3'], { cwd: dir });
  t.match(
    thin.stderr,
    /concurrency: expected at least one worker per segment \(3 segments\), got 2/,
  );
});
