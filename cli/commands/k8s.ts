/**
 * `barrage k8s CONFIG --segments N`: prints the Kubernetes manifests of a distributed run of a
 * configuration (cli/k8s/k8s-manifests.ts), after loading and checking it as `validate` does,
 * for `kubectl apply -f -`. The work is imported when the command runs.
 */
import { Command, Option } from 'clipanion';
import { BaseCommand } from './base-command.js';

/** Prints the manifests of a distributed run. */
export class K8sCommand extends BaseCommand {
  static override paths = [['k8s']];

  static override usage = Command.Usage({
    description: 'Print the Kubernetes manifests of a distributed run',
    details: `
      Checks the configuration (as validate does, with --segment 1/N), then prints a ConfigMap of
      its files (the configuration, its scenario, feeder and data files, any --include), a
      headless Service and an Indexed Job of N pods. Each pod runs its segment; the first gathers
      the others, releases them together, merges their results exactly, prints the whole run's
      report in its log and exits with its verdict, which is the Job's. See docs/distributed.md.
    `,
    examples: [
      [
        'Four pods',
        '$0 k8s load.yaml --segments 4 --image registry.example/barrage:1 | kubectl apply -f -',
      ],
    ],
  });

  file = Option.String({ required: true, name: 'CONFIG' });
  segments = Option.String('--segments', { required: true, description: 'Pods (segments), ≥ 2' });
  image = Option.String('--image', {
    description: 'The image (default barrage:VERSION, from the root Dockerfile)',
  });
  namespace = Option.String('--namespace', { description: "The namespace (default: kubectl's)" });
  name = Option.String('--name', {
    description: 'Name of the Job, Service and ConfigMap (default barrage)',
  });
  port = Option.String('--port', { description: 'The rendezvous port (default 7878)' });
  cpu = Option.String('--cpu', { description: 'CPU request of a pod (default 1)' });
  memory = Option.String('--memory', { description: 'Memory request of a pod (default 1Gi)' });
  cpuLimit = Option.String('--cpu-limit', { description: 'CPU limit of a pod (default none)' });
  memoryLimit = Option.String('--memory-limit', {
    description: 'Memory limit of a pod (default: the request)',
  });
  deadline = Option.String('--deadline', {
    description: "The Job's activeDeadlineSeconds, as a duration (default 1h)",
  });
  readyTimeout = Option.String('--ready-timeout', {
    description: 'How long the pods wait for each other (default 5m)',
  });
  includes = Option.Array('--include', { description: 'Another file the pods need (repeatable)' });

  /** Loads, checks, prints. */
  async run(): Promise<number> {
    const { printManifests } = await import('../k8s/k8s-command-work.js');
    return printManifests(this.context, this);
  }
}
