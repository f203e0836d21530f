import { evaluatorJsonPath } from '../../dsl/grammar/json-path.js';
import type { ExtractorPlan } from '../../model/plan/endpoint-plan.js';

/** A JSON extractor as compile builds it: the RFC 9535 path and its jsonpath-plus spelling. */
export function jsonExtractor(variable: string, path: string): ExtractorPlan {
  return { variable, from: 'json', path, evaluatorPath: evaluatorJsonPath(path) };
}
