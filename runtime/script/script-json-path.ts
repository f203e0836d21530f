/**
 * `res.json(path)` of a scenario's response: the first value at an RFC 9535 JSONPath, spelled for
 * jsonpath-plus once per distinct path (script evaluation off), as YAML extractors read theirs.
 */
import { compileJsonPath } from '../../model/json-path/json-path-query.js';
import { firstJsonValue } from '../vars/extract.js';

/** Scenario JSONPaths already spelled for jsonpath-plus, by the scenario's text. */
const evaluatorPaths = new Map<string, string>();
/** A scenario builds paths at run time: past this many distinct ones, they are not kept. */
const MAX_EVALUATOR_PATHS = 1000;

/**
 * The first value at an RFC 9535 JSONPath (eval off). A path YAML validation would refuse throws
 * its message to the scenario, as an Error, before the body is read.
 */
export function jsonPath(body: string, path: string): unknown {
  let spelled = evaluatorPaths.get(path);
  if (spelled === undefined) {
    const compiled = compileJsonPath(path);
    if (!compiled.ok) {
      const { problem, position } = compiled.failure;
      throw new Error(
        `json(${JSON.stringify(path)}): ${problem} (at character ${position + 1}); see docs/configuration.md, JSONPath`,
      );
    }
    spelled = compiled.path;
    if (evaluatorPaths.size < MAX_EVALUATOR_PATHS) evaluatorPaths.set(path, spelled);
  }
  return firstJsonValue(JSON.parse(body) as unknown, spelled);
}
