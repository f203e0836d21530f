import t from 'tap';
import { parseJsonPath } from '../../dsl/grammar/json-path.js';
import { firstJsonValue, importJsonPath } from '../../runtime/vars/extract.js';

await importJsonPath();

const DOC = {
  items: [{ id: 1 }, { id: 2 }, { id: 3 }],
  'access-token': 't',
  '@id': 'urn:1',
  'a.b': 'dotted',
  "it's": 'quoted',
  '*': 'star',
  '0': 'zero key',
  a: 'A',
  b: 'B',
};

/** Accepted paths: what validation stores for the evaluator, and the first value it reads. */
const ACCEPTED: readonly [path: string, spelled: string, first: unknown][] = [
  ['$', '$', DOC],
  ['$.items[0].id', "$['`items'][0:1]['`id']", 1],
  ['$.items[-1].id', "$['`items'][-1:]['`id']", 3],
  ['$.items[-2].id', "$['`items'][-2:-1]['`id']", 2],
  ['$.items[::-1].id', "$['`items'][::-1]['`id']", 3],
  ['$ .items [ 1 ] .id', "$['`items'][1:2]['`id']", 2],
  ["$['access-token']", "$['`access-token']", 't'],
  ["$['@id']", "$['`@id']", 'urn:1'],
  ["$['a.b']", "$['`a.b']", 'dotted'],
  ["$['it\\'s']", "$['it\\'s']", 'quoted'],
  ['$["it\'s"]', "$['it\\'s']", 'quoted'],
  ["$['*']", "$['`*']", 'star'],
  ["$['0']", "$['`0']", 'zero key'],
  ['$[0]', '$[0:1]', undefined],
  ["$['b','a']", "$['b','a']", 'B'],
  ["$['a',0]", '$[0:0,"a",0:1]', 'A'],
  ['$.items[5,1].id', "$['`items'][5:6,1:2]['`id']", 2],
  ['$..id', "$..['`id']", 1],
  ['$..[1]', '$..[1:2]', { id: 2 }],
  ['$.items.*.id', "$['`items'][*]['`id']", 1],
  ['$["\\u0061"]', "$['`a']", 'A'],
];

for (const [path, spelled, first] of ACCEPTED) {
  t.test(`accepted: ${path}`, async (t) => {
    const parsed = parseJsonPath(path);
    t.same(parsed, { ok: true, value: spelled });
    if (parsed.ok) t.same(firstJsonValue(DOC, parsed.value), first);
  });
}

/** Refused paths, each with the words that tell the user what to write instead. */
const REFUSED: readonly [path: string, message: RegExp][] = [
  ['$.items[?(@.id)]', /filter expressions \(\[\?…\]\) are not supported/],
  ['$.items[0,?(@.id)]', /filter expressions .* \(filter at character 11\)/],
  ['$.items[?@.id]', /filter expressions/],
  ['$.items[@.id]', /"@" belongs in a filter expression .* select by name, index or slice/],
  ['$.items[(@.length-1)]', /"\(" belongs in a filter expression/],
  ['$.access-token', /got "-"; for the key "access-token" write \['access-token'\]/],
  ['$.`@id', /for the key "@id" write \['@id'\]/],
  ['$.@', /for the key "@" write \['@'\]/],
  ['$.1', /for the key "1" write \['1'\]/],
  ['$.a^', /got "\^"/],
  ['$.a~', /got "~"/],
  ['$.a.', /after "\." comes "\*" or a name/],
  ['$..', /after "\.\." comes/],
  ['$ ', /nothing may follow the path, not even a space \(end at character 2\)/],
  [' $', /starts with "\$"/],
  ['a.b', /starts with "\$"/],
  ['$[01]', /got "01"/],
  ['$[-0]', /got "-0"/],
  ['$[+1]', /got "\+1"/],
  ['$[9007199254740992]', /within ±9007199254740991/],
  ['$[1:2:3:4]', /expected "," or "\]" after a selector, got ":"/],
  ["$['a'", /expected "," or "\]"/],
  ["$['a]", /unterminated name/],
  ['$["\\q"]', /unknown escape "\\\\q"/],
  ["$['\\\"']", /unknown escape/],
  ['$["\\uD800"]', /high surrogate must be followed by a low one/],
  ['$["\t"]', /control character in a name must be escaped/],
  ['$[]', /expected a selector/],
  ["$['a;b']", /cannot read the name "a;b": it holds ";"; not supported/],
  ["$['a[0]']", /cannot read the name "a\[0\]": it holds "\["/],
  ["$['a~b',0]", /cannot read the name "a~b" in a list with \*, indices or slices/],
  ["$['%@.']", /cannot read the name "%@\.": it holds "%" or "@" next to/],
  ["$['(a,b)']", /would read "'\(a,b\)'" .* as a function or script/],
];

for (const [path, message] of REFUSED) {
  t.test(`refused: ${JSON.stringify(path)}`, async (t) => {
    const parsed = parseJsonPath(path);
    t.notOk(parsed.ok);
    if (!parsed.ok) {
      t.match(parsed.error.message, message);
      t.ok(parsed.error.message.startsWith(`invalid JSONPath ${JSON.stringify(path)}: `));
    }
  });
}
