import t from 'tap';
import { compileTemplate, render } from '../../runtime/vars/render-template.js';
import { VariableStore } from '../../runtime/vars/variable-store.js';
import { seededRandom } from '../../model/random.js';

t.test('a static template compiles to its string', async (t) => {
  t.equal(compileTemplate(['/a', '/b']), '/a/b');
  t.equal(compileTemplate([]), '');
});

t.test('variables and built-ins are filled; a missing variable yields undefined', async (t) => {
  const vars = new VariableStore();
  vars.set('id', '42');
  const random = seededRandom(7);
  const template = compileTemplate([
    '/users/',
    { var: 'id' },
    '?n=',
    { fn: 'randomInt', min: 5, max: 6 },
  ]);
  for (let i = 0; i < 20; i++) t.match(render(template, vars, random), /^\/users\/42\?n=[56]$/);
  t.equal(render(compileTemplate([{ var: 'nope' }]), vars, random), undefined);
  t.match(
    render(compileTemplate([{ fn: 'uuid' }]), vars, random),
    /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
  );
  t.match(render(compileTemplate([{ fn: 'timestamp' }]), vars, random), /^\d{13}$/);
});

t.test('an unresolved {{$env}} in a compiled plan is a bug, not a silent blank', async (t) => {
  t.throws(() => compileTemplate([{ fn: 'env', name: 'X' }]), /unresolved/);
});
