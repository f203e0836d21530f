// What every esbuild bundle of barrage shares (scripts/bundle.mjs for dist/, and the start-up
// bench's floor, bench/startup.mjs, which must be built the same way to be a fair floor).
import { constants as http2Constants } from 'node:http2';

// CommonJS dependencies call require() for Node's built-in modules.
export const BANNER = {
  js: "import { createRequire as __barrageCreateRequire } from 'node:module'; const require = __barrageCreateRequire(import.meta.url);",
};

// undici's Client requires client-h2.js, which requires node:http2 at load for its constants:
// node:http2 (with node:tls) costs a start about 15 ms, though only a run with `http2: true`
// opens an HTTP/2 session. client-h2.js gets this stand-in instead: the constants, read from
// node:http2 here (the same on Node 22, 24 and 26), and anything else (`connect`) from node:http2
// itself, loaded on that first use.
const lazyHttp2 = {
  name: 'lazy-http2',
  setup(plugin) {
    plugin.onResolve({ filter: /^node:http2$/ }, ({ importer }) =>
      /undici[\\/]lib[\\/]dispatcher[\\/]client-h2\.js$/.test(importer)
        ? { path: 'lazy-http2', namespace: 'lazy-http2' }
        : undefined,
    );
    plugin.onLoad({ filter: /.*/, namespace: 'lazy-http2' }, () => ({
      loader: 'js',
      contents: `const constants = ${JSON.stringify(http2Constants)};
let http2;
module.exports = new Proxy({ constants }, {
  get: (known, key) => (key in known ? known[key] : (http2 ??= require('node:http2'))[key]),
});`,
    }));
  },
};

// hdr-histogram-js's encoding requires pako at load, for a browser: on Node it deflates and
// inflates with node:zlib (its findDeflateFunction), and pako's 160 KB are evaluated at every
// run's start for nothing. The encoding module gets a stand-in that loads the bundled pako on its
// first use, which on Node never comes.
const lazyPako = {
  name: 'lazy-pako',
  setup(plugin) {
    plugin.onResolve({ filter: /^pako$/ }, ({ importer, resolveDir }) =>
      /hdr-histogram-js[\\/]dist[\\/]JsHistogram\.encoding\.js$/.test(importer)
        ? { path: 'lazy-pako', namespace: 'lazy-pako', pluginData: resolveDir }
        : undefined,
    );
    plugin.onLoad({ filter: /.*/, namespace: 'lazy-pako' }, ({ pluginData }) => ({
      loader: 'js',
      resolveDir: pluginData,
      contents: `let pako;
module.exports = new Proxy({}, { get: (_, key) => (pako ??= require('pako'))[key] });`,
    }));
  },
};

// The sources evaluated in a scenario's isolate are TypeScript (sandbox/isolate/), compiled by
// sandbox/isolate-source.ts when barrage runs from its sources. A bundle compiles them now, with
// that very module (Node strips its types; it imports only packages), and gets in its place a
// module that returns the compiled texts: dist/ never calls esbuild for them.
const isolateSources = {
  name: 'isolate-sources',
  setup(plugin) {
    plugin.onLoad({ filter: /[\\/]sandbox[\\/]isolate-source\.ts$/ }, async () => {
      const { compileIsolateSource, ISOLATE_ENTRIES } =
        await import('../sandbox/isolate-source.ts');
      const sources = Object.fromEntries(
        Object.keys(ISOLATE_ENTRIES).map((entry) => [entry, compileIsolateSource(entry)]),
      );
      return {
        loader: 'js',
        contents: `const SOURCES = ${JSON.stringify(sources)};
export const isolateSource = (entry) => SOURCES[entry];`,
      };
    });
  },
};

/** The plugins of every bundle. */
export const PLUGINS = [lazyHttp2, lazyPako, isolateSources];
