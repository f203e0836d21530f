/**
 * Compiles a Template (pre-parsed at load time) into a function that fills it from a worker's
 * variables: compile once, run many (STYLE.md rule 8). A static template compiles to its string.
 * A variable with no value makes the render return undefined: the request then fails with kind
 * missing_variable and is not sent. A variable's value is written with its part's Encoding
 * (model/request/encode-value.ts), chosen here once; raw values are inserted as they are.
 */
import { randomUUID } from 'node:crypto';
import { encoderOf } from '../../model/request/encode-value.js';
import type { Template, VariablePart } from '../../model/plan/template.js';
import type { Random } from '../../model/random.js';
import type { VariableStore } from './variable-store.js';

/** Fills a template; undefined when a variable is missing. */
export type Render = (vars: VariableStore, random: Random) => string | undefined;

/** A compiled template: a constant string, or a render function. */
export type CompiledTemplate = string | Render;

/** Compiles a template. */
export function compileTemplate(template: Template): CompiledTemplate {
  if (template.every((part) => typeof part === 'string')) return template.join('');
  const parts = template.map((part): string | Render => {
    if (typeof part === 'string') return part;
    if ('var' in part) return variable(part);
    switch (part.fn) {
      case 'uuid':
        return () => randomUUID();
      case 'timestamp':
        return () => String(Date.now());
      case 'isoTimestamp':
        return () => new Date().toISOString();
      case 'randomInt': {
        const { min, max } = part;
        return (_vars, random) => String(min + random.int(max - min + 1));
      }
      case 'randomString': {
        const { length } = part;
        return (_vars, random) => randomString(length, random);
      }
      case 'randomItem': {
        const { list } = part;
        return (vars, random) => randomItem(vars.get(list), random);
      }
      case 'env':
        // compile-plan resolves {{$env}} to literal text; one left here is a bug.
        throw new Error(`unresolved {{$env ${part.name}}} in a compiled plan`);
    }
  });
  return (vars, random) => {
    let out = '';
    for (const part of parts) {
      if (typeof part === 'string') out += part;
      else {
        const value = part(vars, random);
        if (value === undefined) return undefined;
        out += value;
      }
    }
    return out;
  };
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `length` characters of [A-Za-z0-9] drawn from the seeded random. */
function randomString(length: number, random: Random): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHANUMERIC[random.int(ALPHANUMERIC.length)];
  return out;
}

/**
 * One item of the JSON list a variable holds, as text (a string as it is, else its JSON text);
 * a value that is not a JSON list is its own one item; an empty list or no value: undefined.
 */
export function randomItem(value: string | undefined, random: Random): string | undefined {
  const items = listItems(value);
  if (items === undefined || items.length === 0) return undefined;
  return items[random.int(items.length)];
}

/** The items of the JSON list a variable holds, each as text; a value not a list: itself alone. */
export function listItems(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return [value];
  }
  if (!Array.isArray(parsed)) return [value];
  return parsed.map((item) => (typeof item === 'string' ? item : JSON.stringify(item)));
}

/** Reads a variable, written with its encoding. */
function variable(part: VariablePart): Render {
  const name = part.var;
  if (part.encoding === undefined || part.encoding === 'raw') return (vars) => vars.get(name);
  const encode = encoderOf(part.encoding);
  return (vars) => {
    const value = vars.get(name);
    return value === undefined ? undefined : encode(value, vars.typed(name));
  };
}

/** Renders a compiled template. */
export function render(
  template: CompiledTemplate,
  vars: VariableStore,
  random: Random,
): string | undefined {
  return typeof template === 'string' ? template : template(vars, random);
}
