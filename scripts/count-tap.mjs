// Counts leaf test points (assertions, not the subtest summaries that wrap them) in TAP files and
// prints "N passed, N failed". CI reads this line; tap's own summary is not used.
import { readFileSync } from 'node:fs';
import { Parser } from 'tap-parser';

let passed = 0;
let failed = 0;

function attach(parser) {
  let lastChild;
  parser.on('child', (child) => {
    lastChild = child.name;
    attach(child);
  });
  parser.on('assert', (result) => {
    if (lastChild !== undefined && result.name === lastChild) {
      // The test point that closes a subtest: its children were counted already.
      lastChild = undefined;
      return;
    }
    if (result.skip || result.todo) return;
    if (result.ok) passed++;
    else failed++;
  });
}

for (const file of process.argv.slice(2)) {
  const parser = new Parser();
  attach(parser);
  parser.end(readFileSync(file, 'utf8'));
}
console.log(`${passed} passed, ${failed} failed`);
