/**
 * A multipart/form-data body, encoded by undici (its FormData, and its body serialization
 * through Response, as fetch() sends one), never by hand: Node's own undici, the global FormData
 * and Response, since importing them from the package loads its whole index at every start. That
 * serialization is asynchronous, so a request with such a body is filled in two steps
 * (compiled-request.ts): form() builds the FormData synchronously (a missing variable is known at
 * once), encode() turns it into bytes and the Content-Type that names the boundary. A body
 * without placeholders is encoded once and kept. A file per user (its path a template of feeder
 * fields) is the file its path renders to among those read at load time; a path that renders to
 * none of them (a variable replaced since) is not sent, as url_not_allowed.
 */
import type { ErrorKind } from '../../model/errors/error-kinds.js';
import type { MultipartPart } from '../../model/plan/endpoint-plan.js';
import type { Random } from '../../model/random.js';
import { compileTemplate, render, type CompiledTemplate } from '../vars/render-template.js';
import type { VariableStore } from '../vars/variable-store.js';

/** An encoded body: its bytes and its Content-Type (with the boundary). */
export interface EncodedBody {
  readonly bytes: Buffer;
  readonly contentType: string;
}

/** A compiled field, file, or file per user. */
type Part =
  | { readonly name: string; readonly value: CompiledTemplate }
  | { readonly name: string; readonly file: Blob; readonly filename: string }
  | {
      readonly name: string;
      readonly path: CompiledTemplate;
      readonly files: ReadonlyMap<string, Blob>;
      readonly filename: string | undefined;
    };

/** A part of the plan compiled. */
function compilePart(part: MultipartPart): Part {
  if (part.kind === 'field') return { name: part.name, value: compileTemplate(part.value) };
  const type = part.contentType;
  if (part.kind === 'file')
    return { name: part.name, file: new Blob([part.bytes], { type }), filename: part.filename };
  const files = new Map(
    [...part.files].map(([path, bytes]) => [path, new Blob([bytes], { type })]),
  );
  return { name: part.name, path: compileTemplate(part.path), files, filename: part.filename };
}

/** The last segment of a file path (its name). */
const lastSegment = (path: string): string => path.split(/[\\/]/).pop() || path;

/** The prebuilt parts of one endpoint's multipart body. */
export class MultipartBody {
  readonly #parts: readonly Part[];
  readonly #static: boolean;
  /** The encoded body, once, when no field has a placeholder. */
  #encoded: EncodedBody | undefined;

  constructor(parts: readonly MultipartPart[]) {
    this.#parts = parts.map(compilePart);
    this.#static = this.#parts.every(
      (p) => !('path' in p) && (!('value' in p) || typeof p.value === 'string'),
    );
  }

  /** The body encoded already (no placeholders, and encoded once), else undefined. */
  get encoded(): EncodedBody | undefined {
    return this.#encoded;
  }

  /**
   * The form of one request; missing_variable when a variable is missing, url_not_allowed when a
   * file's path renders to no file read at load time.
   */
  form(vars: VariableStore, random: Random): FormData | ErrorKind {
    const form = new FormData();
    for (const part of this.#parts) {
      if ('file' in part) {
        form.append(part.name, part.file, part.filename);
        continue;
      }
      if ('path' in part) {
        const path = render(part.path, vars, random);
        if (path === undefined) return 'missing_variable';
        const file = part.files.get(path);
        if (file === undefined) return 'url_not_allowed';
        form.append(part.name, file, part.filename ?? lastSegment(path));
        continue;
      }
      const value = render(part.value, vars, random);
      if (value === undefined) return 'missing_variable';
      form.append(part.name, value);
    }
    return form;
  }

  /** Encodes a form as undici sends one; a static body keeps the result for every later request. */
  async encode(form: FormData): Promise<EncodedBody> {
    const response = new Response(form);
    const contentType = response.headers.get('content-type') ?? 'multipart/form-data';
    const encoded = { bytes: Buffer.from(await response.arrayBuffer()), contentType };
    if (this.#static) this.#encoded = encoded;
    return encoded;
  }
}
