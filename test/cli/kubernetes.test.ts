// scenarios/kubernetes/: the example's manifests are what `barrage k8s` prints for its load.yaml
// today (regenerate them with the command in load.yaml when this fails), and the load test is a
// valid configuration for four segments. test/cli/k8s-manifests.test.ts checks the manifests
// against the Kubernetes API's schemas.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runInProcess } from '../helpers/in-process-cli.js';

const folder = fileURLToPath(new URL('../../scenarios/kubernetes/', import.meta.url));

t.test('the shipped manifests are what barrage k8s prints for the shipped load test', async (t) => {
  const printed = await runInProcess(
    ['k8s', 'load.yaml', '--segments', '4', '--image', 'registry.example/barrage:latest'],
    { cwd: folder },
  );
  t.equal(printed.code, 0, printed.stderr);
  t.equal(readFileSync(`${folder}barrage.yaml`, 'utf8'), printed.stdout, 'barrage.yaml is current');
  t.match(readFileSync(`${folder}load.yaml`, 'utf8'), /barrage k8s load\.yaml --segments 4/);
});
