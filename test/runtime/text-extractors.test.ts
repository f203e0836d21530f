// regex and css extractors (runtime/vars/extract.ts, html-query.ts) at the module level: what
// they read, what leaves a variable unset, large, malformed and hostile bodies.
import t from 'tap';
import { seededRandom } from '../../model/random.js';

const RANDOM = seededRandom(1);
import type { ExtractorPlan } from '../../model/plan/endpoint-plan.js';
import {
  importHtmlQuery,
  importJsonPath,
  readsBody,
  readsCss,
  runExtractors,
} from '../../runtime/vars/extract.js';
import {
  compileSelector,
  MAX_HTML_DEPTH,
  parseHtml,
  selectFirst,
} from '../../runtime/vars/html-query.js';
import { VariableStore } from '../../runtime/vars/variable-store.js';
import { ODD_BODIES } from '../helpers/odd-bodies.js';
import { jsonExtractor } from '../helpers/json-extractor.js';

// A segment imports the HTML parser for a plan with css extractors or checks; these read CSS.
await importHtmlQuery();
await importJsonPath();

const FORM = `<!doctype html>
<html><head><title>  Sign in  </title></head>
<body>
  <form method="post" action="/login">
    <input type="hidden" name="_csrf" value="tok&amp;123">
    <label for="user"> User <b>name</b> </label>
    <input name="user" VALUE="">
  </form>
</body></html>`;

const css = (variable: string, selector: string, attr?: string): ExtractorPlan => ({
  variable,
  from: 'css',
  selector,
  attr,
});
const regex = (variable: string, pattern: string): ExtractorPlan => ({
  variable,
  from: 'regex',
  pattern,
});

/** Runs extractors on a body into a fresh store; returns the error kind and the variables. */
function extract(extractors: readonly ExtractorPlan[], body: string | undefined, before = {}) {
  const vars = new VariableStore();
  for (const [k, v] of Object.entries(before)) vars.set(k, v as string);
  const kind = runExtractors(extractors, body, null, vars, RANDOM);
  return { kind, vars: vars.entries() };
}

t.test('css: an attribute, or the text content trimmed; entities decoded', async (t) => {
  const { kind, vars } = extract(
    [
      css('csrf', 'input[name=_csrf]', 'value'),
      css('label', 'form label'),
      css('title', 'title'),
      css('empty', 'input[name=user]', 'value'),
      css('typed', 'form > input', 'type'),
    ],
    FORM,
  );
  t.equal(kind, undefined);
  t.same(vars, {
    csrf: 'tok&123',
    label: 'User name',
    title: 'Sign in',
    empty: '',
    typed: 'hidden',
  });
});

t.test('nothing found leaves the variable as it was', async (t) => {
  const before = { csrf: 'old', n: 'old', missing: 'old' };
  const { kind, vars } = extract(
    [
      css('csrf', 'input[name=nope]', 'value'),
      css('missing', 'input[name=_csrf]', 'data-x'),
      regex('n', 'nonce="([^"]+)"'),
      css('unset', 'table td'),
      regex('unset2', 'zzz'),
    ],
    FORM,
    before,
  );
  t.equal(kind, undefined);
  t.same(vars, before, 'no element, no attribute, no match: nothing changed, nothing added');
  t.same(extract([css('a', 'p'), regex('b', '.*')], undefined).vars, {}, 'no body at all');
});

t.test('regex: the first group of the first match, else the whole match', async (t) => {
  const body = 'a=1; token="t-1" token="t-2"; id: 42';
  const { kind, vars } = extract(
    [
      regex('group', 'token="([^"]+)"'),
      regex('whole', '\\d+'),
      regex('named', 'id: (?<id>\\d+)'),
      regex('outer', '(?:token)="(t-\\d)"'),
    ],
    body,
  );
  t.equal(kind, undefined);
  t.same(vars, { group: 't-1', whole: '1', named: '42', outer: 't-1' });
  // A group that takes no part in the match found nothing.
  t.same(extract([regex('v', 'a=(x)?1')], body).vars, {});
  t.same(extract([regex('v', '^$')], '').vars, { v: '' }, 'an empty body is text too');
  t.same(extract([regex('v', 'x*')], 'abc').vars, { v: '' }, 'an empty match is a value');
});

t.test('a body over 1 MiB: the token at its end is found', async (t) => {
  const filler = '<div class="row"><span>item</span></div>\n'.repeat(30_000);
  t.ok(filler.length > 1024 * 1024);
  const body = `<html><body>${filler}<form><input name="_csrf" value="late"></form></body></html>`;
  const { kind, vars } = extract(
    [css('c', 'form input', 'value'), regex('r', 'value="([^"]+)"'), css('n', 'span')],
    body,
  );
  t.equal(kind, undefined);
  t.same(vars, { c: 'late', r: 'late', n: 'item' });
});

t.test('malformed HTML is parsed as leniently as a browser would', async (t) => {
  const body =
    '<p>one<p>two <b>bold <i>both</b> tail<div><input name=t value=v1 >< / junk</form></table><';
  const { kind, vars } = extract(
    [css('second', 'p + p'), css('t', 'input[name=t]', 'value'), css('i', 'i')],
    body,
  );
  t.equal(kind, undefined);
  t.equal(vars.t, 'v1', 'an unquoted attribute in an unclosed tag');
  t.match(vars.second, /^two bold/);
  t.equal(vars.i, 'both');
});

t.test('a JSON body: regex reads its text, css its markup, json its values', async (t) => {
  const body = JSON.stringify({ token: 'j', n: 1 });
  const { kind, vars } = extract(
    [css('c', '*'), regex('r', '"token":"([^"]+)"'), jsonExtractor('j', '$.token')],
    body,
  );
  t.equal(kind, undefined);
  t.same(vars, { r: 'j', j: 'j' }, 'JSON text holds no element');
  // The body is HTML to a css extractor whatever its type: a tag inside a string is an element.
  const markup = JSON.stringify({ html: '<input name="x" value="in">' });
  t.same(extract([css('c', 'input', 'name')], markup).vars, { c: '\\"x\\"' });
});

t.test('every odd body: regex and css find nothing or a value, never throw', async (t) => {
  for (const body of ODD_BODIES) {
    const { kind } = extract(
      [css('c', 'a[href]', 'href'), css('t', '*'), regex('r', '(\\d)')],
      body.bytes.toString('utf8'),
    );
    t.equal(kind, undefined, body.name);
  }
});

t.test('hostile HTML past the bounds fails the request as extract_error', async (t) => {
  const deep = '<div>'.repeat(MAX_HTML_DEPTH + 10);
  t.equal(extract([css('v', 'input')], deep).kind, 'extract_error', 'nested too deep');
  t.throws(() => parseHtml(deep), /nested deeper than 512/);
  t.equal(
    extract([css('v', 'div')], '<div>'.repeat(MAX_HTML_DEPTH - 10)).kind,
    undefined,
    'just under the depth bound',
  );
  // css-select compares every pair of siblings for `~`: 150,000 × 150,000 without the bound.
  const wide = '<i></i>'.repeat(150_000);
  const found = extract([css('v', 'b ~ i'), regex('after', '<i>')], wide);
  t.equal(found.kind, 'extract_error', 'too many steps');
  t.same(found.vars, {}, 'the extractors after the throw did not run');
  t.throws(() => selectFirst(parseHtml(wide), compileSelector('b ~ i')), /more than/);
  // The bound is per selection: the next one starts with all of it.
  t.equal(selectFirst(parseHtml(wide), compileSelector('i:first-child'))?.name, 'i');
});

t.test('the body is kept for regex and css extractors, not for headers alone', async (t) => {
  t.ok(readsBody([regex('a', 'x')]));
  t.ok(readsBody([css('a', 'p')]));
  t.ok(readsBody([jsonExtractor('a', '$')]));
  t.notOk(readsBody([{ variable: 'a', from: 'header', header: 'x' }]));
});

t.test(
  'readsCss finds a css extractor or check anywhere in plan data, and nothing else',
  async (t) => {
    const http = { graph: { endpoints: [{ extract: [css('csrf', 'input')], checks: [] }] } };
    const check = {
      graph: { endpoints: [{ checks: [{ subject: { from: 'css', selector: 'h1' } }] }] },
    };
    const ws = { graph: { endpoints: [{ session: { steps: [{ extract: [css('x', 'p')] }] } }] } };
    const none = {
      graph: { endpoints: [{ extract: [jsonExtractor('id', '$.id')], css: 'not a plan key' }] },
    };
    t.equal(readsCss(http), true);
    t.equal(readsCss(check), true);
    t.equal(readsCss(ws), true);
    t.equal(readsCss(none), false);
  },
);
