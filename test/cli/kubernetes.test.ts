import t from 'tap';
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { runInProcess } from '../helpers/in-process-cli.js';

const read = (name: string) =>
  parseAllDocuments(
    readFileSync(new URL(`../../scenarios/kubernetes/${name}`, import.meta.url), 'utf8'),
  ).map((d) => d.toJS() as Record<string, unknown>);

interface JobSpec {
  completionMode?: string;
  completions: number;
  parallelism: number;
  template: { spec: { containers: { env?: { name: string; value: string }[]; args: string[] }[] } };
}

t.test('the segments Job runs n indexed pods, each its own segment of n', async (t) => {
  const [job] = read('segments-job.yaml') as [{ kind: string; spec: JobSpec }];
  t.equal(job.kind, 'Job');
  t.equal(job.spec.completionMode, 'Indexed');
  t.equal(job.spec.parallelism, job.spec.completions);
  const container = job.spec.template.spec.containers[0]!;
  t.equal(container.env?.find((e) => e.name === 'SEGMENTS')?.value, String(job.spec.completions));
  t.match(container.args[0], /--segment "\$\(\(JOB_COMPLETION_INDEX \+ 1\)\)\/\$SEGMENTS"/);
  t.match(container.args[0], /--start-at "\$START_AT"/);
  t.match(container.args[0], /--raw "\/results\/segment-\$JOB_COMPLETION_INDEX\.json"/);
});

t.test(
  'the merge Job merges every segment file; the config is a valid barrage config map',
  async (t) => {
    const [merge] = read('merge-job.yaml') as [{ spec: JobSpec }];
    t.match(merge.spec.template.spec.containers[0]!.args[0], /merge \/results\/segment-\*\.json/);
    const [configMap, claim] = read('config.yaml') as [
      { kind: string; data: Record<string, string> },
      { kind: string },
    ];
    t.equal(configMap.kind, 'ConfigMap');
    t.equal(claim.kind, 'PersistentVolumeClaim');
    const dir = t.testdir({ 'load.yaml': configMap.data['load.yaml']! });
    const checked = await runInProcess(['validate', 'load.yaml', '--segment', '4/4'], { cwd: dir });
    t.equal(checked.code, 0, checked.stderr);
  },
);
