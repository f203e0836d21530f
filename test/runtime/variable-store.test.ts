import t from 'tap';
import {
  MAX_VARIABLE_CHARS,
  MAX_VARIABLES,
  VariableStore,
} from '../../runtime/vars/variable-store.js';

// One test per row of spec §3.1.
t.test('(start) --store creation--> Created', async (t) => {
  t.equal(new VariableStore().state, 'Created');
});

t.test('Created --first request--> Active', async (t) => {
  const store = new VariableStore();
  store.begin();
  t.equal(store.state, 'Active');
  store.begin();
  t.equal(store.state, 'Active', 'later requests keep it Active');
});

t.test('Active --Set--> Active, value stored', async (t) => {
  const store = new VariableStore();
  store.begin();
  store.set('token', 'abc');
  t.equal(store.state, 'Active');
  t.equal(store.get('token'), 'abc');
});

t.test('Active --Get--> Active, value returned', async (t) => {
  const store = new VariableStore();
  store.begin();
  store.set('a', '1');
  t.equal(store.get('a'), '1');
  t.equal(store.get('missing'), undefined);
  t.equal(store.state, 'Active');
});

t.test('Active --Merge--> Active, record fields stored', async (t) => {
  const store = new VariableStore();
  store.begin();
  store.set('keep', 'x');
  store.merge({
    fields: ['name', 'email', 'keep'],
    values: ['Ada', 'ada@example.com', 'y'],
    typed: [false, false, false],
  });
  t.equal(store.state, 'Active');
  t.same(store.entries(), { keep: 'y', name: 'Ada', email: 'ada@example.com' });
  store.merge({ fields: ['name', 'email'], values: ['Bob', undefined], typed: [false, false] });
  t.same(
    store.entries(),
    { keep: 'y', name: 'Bob', email: 'ada@example.com' },
    'a field the record lacks keeps its value',
  );
});

t.test('Active --Clear--> Cleared, entries removed', async (t) => {
  const store = new VariableStore();
  store.begin();
  store.set('a', '1');
  store.clear();
  t.equal(store.state, 'Cleared');
  t.equal(store.get('a'), undefined);
});

t.test('Cleared --Set--> Active', async (t) => {
  const store = new VariableStore();
  store.begin();
  store.clear();
  store.set('a', '2');
  t.equal(store.state, 'Active');
  t.equal(store.get('a'), '2');
});

t.test('Active --test complete--> (end)', async (t) => {
  const store = new VariableStore();
  store.begin();
  store.end();
  t.equal(store.state, 'Ended');
  t.throws(() => store.set('a', '1'), /after the test completed/);
});

t.test(
  'Set past the bounds is refused and changes nothing; Merge is counted, never refused',
  async (t) => {
    const store = new VariableStore();
    let stored = 0;
    for (let i = 0; i < MAX_VARIABLES; i++) if (store.set(`k${i}`, '')) stored++;
    t.equal(stored, MAX_VARIABLES);
    t.equal(store.set('one-more', ''), false, 'the count bound');
    t.equal(store.get('one-more'), undefined);
    t.equal(store.set('k0', 'x'.repeat(1000)), true, 'a variable held may be replaced');
    store.clear();
    const half = 'x'.repeat(MAX_VARIABLE_CHARS / 2);
    t.equal(store.set('a', half), true);
    t.equal(store.set('b', half), false, 'the characters bound counts keys too');
    t.equal(store.set('a', ''), true, 'replacing a value frees its characters');
    t.equal(store.set('b', half), true);
    store.merge({ fields: ['c'], values: [half], typed: [false] });
    t.equal(store.get('c'), half, 'a feeder record is stored whatever the bounds');
    t.equal(store.set('d', ''), false, '…and counted');
    store.clear();
    t.equal(store.set('d', half), true, 'Clear frees everything');
  },
);

t.test('typed values: set and merge mark them, a text value or Clear unmarks them', async (t) => {
  const store = new VariableStore();
  store.set('id', '1070', true);
  store.set('name', 'ada');
  t.equal(store.typed('id'), true);
  t.equal(store.typed('name'), false);
  t.equal(store.get('id'), '1070', 'the value is its JSON text');
  store.set('id', '1071');
  t.equal(store.typed('id'), false, 'a text value replaces a typed one');
  store.merge({ fields: ['n', 's'], values: ['5', 'x'], typed: [true, false] });
  t.equal(store.typed('n'), true);
  t.equal(store.typed('s'), false);
  store.clear();
  t.equal(store.typed('n'), false);
});
