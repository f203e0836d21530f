/**
 * A WebSocket endpoint's `session` (or its `messages` shorthand) → WsPlan: messages templated,
 * frame matches compiled, each wait's timeout settled (the step's, else the endpoint's).
 * `messages: [a, b]` with `message_interval: t` is the session
 * [send a, reply any, pause t, send b, reply any, pause t].
 */
import { evaluatorJsonPath } from '../grammar/json-path.js';
import type { ExtractorPlan } from '../../model/plan/endpoint-plan.js';
import type { Template } from '../../model/plan/template.js';
import {
  messageSteps,
  type FrameMatchPlan,
  type WsMessagePlan,
  type WsPlan,
  type WsStepPlan,
} from '../../model/plan/ws-session-plan.js';
import type { FrameMatchConfig, WsStepConfig } from '../schema/ws-session-schema.js';
import { resolveTemplate as resolve, type EnvResolver } from './resolve-template.js';

type MessageConfig = string | { readonly text: string } | { readonly binary: string };

/** What the session of an endpoint is written as. */
export interface WsSessionConfig {
  readonly session?: readonly WsStepConfig[] | undefined;
  readonly messages?: readonly ({ text: string } | { binary: string })[] | undefined;
  readonly message_interval?: number | undefined;
  readonly subprotocols?: readonly string[] | undefined;
}

/** The session plan, and the templates it renders (for the variables it needs). */
export function compileWsSession(
  config: WsSessionConfig,
  timeoutMs: number,
  env: EnvResolver,
  extractorPlan: (variable: string, from: unknown) => ExtractorPlan,
): { plan: WsPlan; templates: Template[] } {
  const templates: Template[] = [];
  const message = (m: MessageConfig, path: (string | number)[]): WsMessagePlan => {
    if (typeof m === 'string' || 'text' in m) {
      const text = resolve(typeof m === 'string' ? m : m.text, path, env);
      templates.push(text);
      return { kind: 'text', text };
    }
    return {
      kind: 'binary',
      bytes: new Uint8Array(Buffer.from(m.binary.slice('base64:'.length), 'base64')),
    };
  };
  const match = (m: FrameMatchConfig | 'any', path: (string | number)[]): FrameMatchPlan => {
    const plan = compileFrameMatch(m, path, env);
    if (plan.kind === 'json' && plan.test.op === 'equalsText') templates.push(plan.test.text);
    return plan;
  };
  const extract = (map: Readonly<Record<string, unknown>> | undefined): ExtractorPlan[] =>
    Object.entries(map ?? {}).map(([variable, from]) => extractorPlan(variable, from));
  const steps: WsStepPlan[] =
    config.session?.map((step, i): WsStepPlan => {
      const at = (...keys: (string | number)[]) => ['session', i, ...keys];
      const timeout = step.timeout ?? timeoutMs;
      if (step.send !== undefined)
        return {
          kind: 'send',
          message: message(step.send, at('send')),
          reply: step.reply === undefined ? undefined : match(step.reply, at('reply')),
          timeoutMs: timeout,
          extract: extract(step.extract),
        };
      if (step.receive !== undefined)
        return {
          kind: 'receive',
          match: match(step.receive, at('receive')),
          timeoutMs: timeout,
          extract: extract(step.extract),
        };
      if (step.listen !== undefined)
        return {
          kind: 'listen',
          durationMs: step.listen,
          match: match(step.match ?? 'any', at('match')),
        };
      return { kind: 'pause', durationMs: step.pause ?? 0 };
    }) ??
    messageSteps(
      (config.messages ?? []).map((m, i) => message(m, ['messages', i, 'text'])),
      config.message_interval ?? 0,
      timeoutMs,
    );
  return { plan: { steps, subprotocols: config.subprotocols ?? [] }, templates };
}

/** A frame selector as the runtime reads it (a Socket.IO match too). */
export function compileFrameMatch(
  match: FrameMatchConfig | 'any',
  path: (string | number)[],
  env: EnvResolver,
): FrameMatchPlan {
  if (match === 'any') return { kind: 'any' };
  if (match.regex !== undefined) return { kind: 'regex', pattern: match.regex };
  const jsonPath = match.json!;
  const evaluatorPath = evaluatorJsonPath(jsonPath);
  const base = { kind: 'json', path: jsonPath, evaluatorPath } as const;
  if (match.matches !== undefined)
    return { ...base, test: { op: 'matches', pattern: match.matches } };
  if (typeof match.equals === 'string')
    return {
      ...base,
      test: { op: 'equalsText', text: resolve(match.equals, [...path, 'equals'], env) },
    };
  if (match.equals !== undefined) return { ...base, test: { op: 'equals', value: match.equals } };
  return { ...base, test: { op: 'exists' } };
}
