/**
 * The `data` API of the options reader (options-entry.ts), as source evaluated in its isolate:
 * data.json(name) and data.csv(name) note which files the scenario's top level opens, so that they
 * are read, checked and shared before any traffic (read-shared-data.ts), and return a stand-in
 * that refuses to be read: records are read in iterations and setup(), once the files are loaded
 * (the sandbox's own `data` refuses reads at the top level with the same message).
 * Defines `opened` (the [{ name, kind }] noted, once each) and `openData`.
 */

import { READ_AT_TOP_LEVEL } from '../../model/plan/shared-data.js';

/** Source defining `opened` and `openData` (see the file comment). */
export const OPENED_DATA_SOURCE = `
const opened = [];
const dataOpener = (kind) => (name) => {
  if (typeof name !== 'string')
    throw new TypeError('data.' + kind + '(): the data file\\'s name, a string relative to the scenario\\'s folder');
  if (!opened.some((o) => o.name === name && o.kind === kind)) opened.push({ name, kind });
  const refused = () => {
    throw new Error('data.' + kind + '(' + JSON.stringify(name) + '): ' + ${JSON.stringify(READ_AT_TOP_LEVEL)});
  };
  return new Proxy(Object.freeze(Object.create(null)), { get: refused, has: refused, ownKeys: refused });
};
const openData = Object.freeze({ json: dataOpener('json'), csv: dataOpener('csv') });
`;
