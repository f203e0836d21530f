/**
 * A multipart/form-data body, encoded by undici (its FormData, and its body serialization
 * through Response, as fetch() sends one), never by hand: Node's own undici, the global FormData
 * and Response, since importing them from the package loads its whole index at every start. That
 * serialization is asynchronous, so a request with such a body is filled in two steps
 * (compiled-request.ts): form() builds the FormData synchronously (a missing variable is known at
 * once), encode() turns it into bytes and the Content-Type that names the boundary. A body
 * without placeholders is encoded once and kept.
 */
import type { MultipartPart } from '../../model/plan/endpoint-plan.js';
import type { Random } from '../../model/random.js';
import { compileTemplate, render, type CompiledTemplate } from '../vars/render-template.js';
import type { VariableStore } from '../vars/variable-store.js';

/** An encoded body: its bytes and its Content-Type (with the boundary). */
export interface EncodedBody {
  readonly bytes: Buffer;
  readonly contentType: string;
}

/** A compiled field or file. */
type Part =
  | { readonly name: string; readonly value: CompiledTemplate }
  | { readonly name: string; readonly file: Blob; readonly filename: string };

/** The prebuilt parts of one endpoint's multipart body. */
export class MultipartBody {
  readonly #parts: readonly Part[];
  readonly #static: boolean;
  /** The encoded body, once, when no field has a placeholder. */
  #encoded: EncodedBody | undefined;

  constructor(parts: readonly MultipartPart[]) {
    this.#parts = parts.map((part) =>
      part.kind === 'field'
        ? { name: part.name, value: compileTemplate(part.value) }
        : {
            name: part.name,
            file: new Blob([part.bytes], { type: part.contentType }),
            filename: part.filename,
          },
    );
    this.#static = this.#parts.every((p) => !('value' in p) || typeof p.value === 'string');
  }

  /** The body encoded already (no placeholders, and encoded once), else undefined. */
  get encoded(): EncodedBody | undefined {
    return this.#encoded;
  }

  /** The form of one request; undefined when a variable is missing. */
  form(vars: VariableStore, random: Random): FormData | undefined {
    const form = new FormData();
    for (const part of this.#parts) {
      if ('file' in part) {
        form.append(part.name, part.file, part.filename);
        continue;
      }
      const value = render(part.value, vars, random);
      if (value === undefined) return undefined;
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
