/**
 * The folder a scenario may read (docs/scenarios.md, "Security model"): the real folder of the
 * entry file the user named, and everything below it. Paths are compared by their real paths, so
 * a symlink inside the folder that points out of it leads out of it.
 */
import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/** The real folder of a scenario file (the file itself may be a symlink from elsewhere). */
export function scenarioFolder(file: string): string {
  return dirname(realpathSync(file));
}

/**
 * True when `path` (absolute) is `folder` (a real path) or below it. A path that does not exist
 * is judged by its nearest existing ancestor, so `../missing` is outside without being looked up.
 */
export function isInsideFolder(folder: string, path: string): boolean {
  const rel = relative(folder, realOrAncestor(path));
  return !isAbsolute(rel) && rel.split(sep)[0] !== '..';
}

/** The real path of `path`, or of its nearest existing ancestor with the rest appended. */
function realOrAncestor(path: string): string {
  let rest = '';
  let at = resolve(path);
  for (;;) {
    try {
      return resolve(realpathSync(at), rest);
    } catch {
      const parent = dirname(at);
      if (parent === at) return resolve(path);
      rest = join(relative(parent, at), rest);
      at = parent;
    }
  }
}
