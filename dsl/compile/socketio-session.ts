/**
 * An endpoint's `socketio:` → SocketioPlan (docs/socketio.md): event data and the auth payload as
 * JSON templates, query values templated, matches compiled as the WebSocket ones are, each
 * wait's timeout settled (the step's, else the endpoint's).
 */
import type { ExtractorPlan } from '../../model/plan/endpoint-plan.js';
import type { SocketioPlan, SocketioStepPlan } from '../../model/plan/socketio-plan.js';
import type { Template } from '../../model/plan/template.js';
import type { SocketioConfig, SocketioStepConfig } from '../schema/socketio-schema.js';
import { compileJsonTemplate } from './request-parts.js';
import { resolveTemplate, type EnvResolver } from './resolve-template.js';
import { compileFrameMatch } from './ws-session.js';

/** The session plan, and the templates it renders (for the variables it needs). */
export function compileSocketioSession(
  config: SocketioConfig,
  timeoutMs: number,
  env: EnvResolver,
  extractorPlan: (variable: string, from: unknown) => ExtractorPlan,
): { plan: SocketioPlan; templates: Template[] } {
  const templates: Template[] = [];
  const kept = (template: Template): Template => {
    templates.push(template);
    return template;
  };
  const at = (...keys: (string | number)[]) => ['socketio', ...keys];
  const step = (s: SocketioStepConfig, i: number): SocketioStepPlan => {
    const match = (m: Parameters<typeof compileFrameMatch>[0], where: (string | number)[]) => {
      const plan = compileFrameMatch(m, where, env);
      if (plan.kind === 'json' && plan.test.op === 'equalsText') templates.push(plan.test.text);
      return plan;
    };
    const extract = Object.entries(s.extract ?? {}).map(([v, from]) => extractorPlan(v, from));
    const timeout = s.timeout ?? timeoutMs;
    if (s.emit !== undefined)
      return {
        kind: 'emit',
        event: s.emit.event,
        data:
          s.emit.data === undefined
            ? undefined
            : kept(compileJsonTemplate(s.emit.data, at('session', i, 'emit', 'data'), env)),
        ack: s.ack === undefined ? undefined : match(s.ack, at('session', i, 'ack')),
        timeoutMs: timeout,
        extract,
      };
    if (s.receive !== undefined)
      return {
        kind: 'receive',
        event: s.receive.event,
        match: match(s.receive.match ?? 'any', at('session', i, 'receive', 'match')),
        timeoutMs: timeout,
        extract,
      };
    if (s.listen !== undefined)
      return {
        kind: 'listen',
        durationMs: s.listen,
        event: s.event,
        match: match(s.match ?? 'any', at('session', i, 'match')),
      };
    return { kind: 'pause', durationMs: s.pause ?? 0 };
  };
  const plan: SocketioPlan = {
    namespace: config.namespace,
    path: config.path,
    transports: config.transports,
    auth:
      config.auth === undefined
        ? undefined
        : kept(compileJsonTemplate(config.auth, at('auth'), env)),
    query: Object.entries(config.query ?? {}).map(([name, value]) => ({
      name,
      value: kept(resolveTemplate(value, at('query', name), env)),
    })),
    steps: config.session.map(step),
  };
  return { plan, templates };
}
