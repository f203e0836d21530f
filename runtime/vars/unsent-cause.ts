/**
 * Where an unsent request came from, for the reports' unsent causes: the endpoint, and for a
 * missing variable which one and in which part (`{{user_name}} in endpoint login, body`), so a
 * feeder column typo names itself. Computed only when a request is not sent.
 */
import type { EndpointPlan } from '../../model/plan/endpoint-plan.js';
import type { Template } from '../../model/plan/template.js';
import type { VariableStore } from './variable-store.js';

/** The cause of an unsent request of `endpoint` (the kind goes in front of it). */
export function unsentCause(endpoint: EndpointPlan, missing: VariableStore | undefined): string {
  const where = `in endpoint ${endpoint.name}`;
  if (missing === undefined) return where;
  const parts: [string, Template][] = [['url', endpoint.path]];
  if (endpoint.query !== undefined) parts.push(['query', endpoint.query]);
  for (const header of endpoint.headers) parts.push([`header ${header.name}`, header.value]);
  const body = endpoint.body;
  if (body?.kind === 'text') parts.push(['body', body.text]);
  for (const part of body?.kind === 'multipart' ? body.parts : [])
    if (part.kind === 'field') parts.push([`multipart ${part.name}`, part.value]);
    else if (part.kind === 'files') parts.push([`multipart ${part.name} file`, part.path]);
  endpoint.ws?.steps.forEach((step, i) => {
    if (step.kind === 'send' && step.message.kind === 'text')
      parts.push([`session step ${i + 1}`, step.message.text]);
  });
  for (const [part, template] of parts)
    for (const piece of template)
      if (typeof piece === 'object' && 'var' in piece && missing.get(piece.var) === undefined)
        return `{{${piece.var}}} ${where}, ${part}`;
  return where;
}
