// What a scripted virtual user costs in its segment's isolate (issue 47): builds N contexts as
// runtime/script/sandbox.ts builds a virtual user's (a context, the bundled scenario run in it, the
// bootstrap, the hub told of it), or bare V8 contexts with `bare`, and prints the V8 heap each
// took and the time to build one.
//   node --no-node-snapshot --import tsx bench/isolate-contexts.bench.ts [N=500] [bare]
import { fileURLToPath } from 'node:url';
import { bundleScenario } from '../dsl/script/bundle-scenario.js';
import { isolatedVm } from '../native/isolated-vm.js';
import { createHub } from '../runtime/script/sandbox-hub.js';
import { isolateSource } from '../sandbox/isolate-source.js';
import { webHost } from '../sandbox/web-host.js';

const N = Number(process.argv[2] ?? 500);
const bare = process.argv[3] === 'bare';
const path = fileURLToPath(new URL('./scenarios/get-json.ts', import.meta.url));
const bundled = await bundleScenario({ path, shown: 'get-json.ts', source: { kind: 'default' } });
if (!bundled.ok) throw new Error(JSON.stringify(bundled.error));
const ivm = isolatedVm();
const isolate = new ivm.Isolate({ memoryLimit: 4096 });
const script = isolate.compileScriptSync(bundled.value.code);
const hub = createHub(isolate, 5000, []);
const heap = (): number => isolate.getHeapStatisticsSync().used_heap_size;
const before = heap();
const started = performance.now();
const contexts: unknown[] = [];
for (let vu = 1; vu <= N; vu++) {
  const context = isolate.createContextSync();
  contexts.push(context);
  if (bare) continue;
  const factory = script.runSync(context, { reference: true });
  const args = [
    hub.post.derefInto(),
    new ivm.Callback(() => undefined),
    factory.derefInto(),
    vu,
    undefined,
    hub.data.derefInto(),
    new ivm.Callback(webHost),
    '{}',
  ];
  const entry = context.evalClosureSync(isolateSource('bootstrap'), args, {
    result: { reference: true },
  });
  factory.release();
  hub.add.applySync(undefined, [vu, entry.derefInto()]);
  entry.release();
}
const ms = (performance.now() - started) / N;
const kb = (heap() - before) / N / 1024;
console.log(
  `${N} ${bare ? 'bare V8' : "virtual users'"} contexts: ${kb.toFixed(0)} KB of heap and ${ms.toFixed(1)} ms each`,
);
