// The RFC 9535 compliance test suite (test/fixtures/jsonpath-cts) through validation (the grammar
// function the schema's refinement calls) and, for what validation accepts, through the
// extractors' first-value function against the case's document: every accepted selector must
// answer the RFC's first value (any allowed order's), every invalid one must be refused.
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import t from 'tap';
import { parseJsonPath } from '../../dsl/grammar/json-path.js';
import { firstJsonValue, importJsonPath } from '../../runtime/vars/extract.js';

await importJsonPath();

interface CtsCase {
  readonly name: string;
  readonly selector: string;
  readonly document?: unknown;
  readonly result?: readonly unknown[];
  readonly results?: readonly (readonly unknown[])[];
  readonly invalid_selector?: boolean;
}

const SUITE = new URL('../fixtures/jsonpath-cts/cts.json', import.meta.url);
const cases = (JSON.parse(readFileSync(SUITE, 'utf8')) as { tests: CtsCase[] }).tests;

/** A filter selector is one whose brackets open with "?" (the suite's filter and function cases). */
const isFilter = (c: CtsCase): boolean => /\[\s*\?|,\s*\?/.test(c.selector);

/** The first value the RFC allows: the first element of the result, or of any allowed order. */
function allowedFirsts(c: CtsCase): unknown[] {
  if (c.result !== undefined) return [c.result[0]];
  return (c.results ?? []).map((order) => order[0]);
}

const invalid = cases.filter((c) => c.invalid_selector === true);
const valid = cases.filter((c) => c.invalid_selector !== true);
const filters = valid.filter(isFilter);
const plain = valid.filter((c) => !isFilter(c));

t.test(`${invalid.length} invalid selectors of the suite are all refused`, async (t) => {
  const accepted = invalid.filter((c) => parseJsonPath(c.selector).ok).map((c) => c.name);
  t.same(accepted, [], 'none accepted');
  t.ok(invalid.length > 200, 'the suite was read');
});

t.test(`${plain.length} valid non-filter selectors evaluate as RFC 9535 (0 refused)`, async (t) => {
  const refused: string[] = [];
  const wrong: string[] = [];
  for (const c of plain) {
    const parsed = parseJsonPath(c.selector);
    if (!parsed.ok) {
      refused.push(`${c.name}: ${parsed.error.message}`);
      continue;
    }
    const found = firstJsonValue(c.document, parsed.value);
    if (!allowedFirsts(c).some((first) => isDeepStrictEqual(first, found)))
      wrong.push(`${c.name}: ${c.selector} → ${parsed.value} gave ${JSON.stringify(found)}`);
  }
  t.same(refused, [], 'none refused');
  t.same(wrong, [], 'every first value is the RFC’s');
  t.ok(plain.length > 150, 'the suite was read');
});

t.test(`${filters.length} valid filter selectors are refused with the reason`, async (t) => {
  const unexplained = filters.flatMap((c) => {
    const parsed = parseJsonPath(c.selector);
    return !parsed.ok &&
      /filter expressions \(\[\?…\]\) are not supported/.test(parsed.error.message)
      ? []
      : [c.name];
  });
  t.same(unexplained, [], 'each refused: "filter expressions ([?…]) are not supported"');
});
