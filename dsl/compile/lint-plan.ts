/**
 * Static checks of a compiled Plan that are warnings, not errors: placeholders that no extractor,
 * feeder field or built-in can ever fill (the requests would fail with missing_variable).
 */
import type { ConfigWarning } from '../issues.js';
import type { Plan } from '../plan/plan.js';
import type { Template } from '../plan/template.js';
import { templateVariables } from '../grammar/placeholder.js';

/** Where a variable can come from: endpoint names (extractors) and "feeder". */
export function variableProviders(plan: Plan): Map<string, string[]> {
  const providers = new Map<string, string[]>();
  const add = (variable: string, source: string): void => {
    const list = providers.get(variable) ?? [];
    if (!list.includes(source)) list.push(source);
    providers.set(variable, list);
  };
  for (const field of plan.feeder?.records.fields ?? []) add(field, 'feeder');
  for (const endpoint of plan.graph.endpoints)
    for (const extractor of endpoint.extract) add(extractor.variable, endpoint.name);
  return providers;
}

/** Variables the auth settings read (a bearer token such as {{token}}). */
export function authNeeds(plan: Plan): string[] {
  const auth = plan.auth;
  if (auth === undefined || auth.type === 'oauth2') return [];
  const templates: Template[] =
    auth.type === 'bearer' ? [auth.token] : [auth.username, auth.password];
  return templates.flatMap((t) => templateVariables(t));
}

/** Warnings for placeholders nothing can fill. */
export function lintPlan(plan: Plan): ConfigWarning[] {
  const providers = variableProviders(plan);
  const warnings: ConfigWarning[] = [];
  const check = (needs: readonly string[], where: string, path: (string | number)[]): void => {
    for (const variable of needs) {
      if (providers.has(variable)) continue;
      warnings.push({
        code: 'unfillable_placeholder',
        source: { kind: 'default' },
        path,
        message: `${where}: {{${variable}}} can never be filled: no extractor, feeder field or built-in provides it (those requests will fail with missing_variable)`,
      });
    }
  };
  plan.graph.endpoints.forEach((endpoint, i) =>
    check(endpoint.needs, `endpoint "${endpoint.name}"`, ['endpoints', i]),
  );
  check(authNeeds(plan), 'auth', ['auth']);
  return warnings;
}
