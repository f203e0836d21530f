/**
 * The config schema's input side as JSON Schema: the types environment variables and flags are
 * converted to, the key lists behind "did you mean", and the defaults `validate` shows. Read from
 * the committed barrage.schema.json rather than computed from zod at every start (10–13 ms of
 * each command's start-up); json-schema.ts generates that file from zod, and a test fails when the
 * two differ.
 */
import committed from '../../barrage.schema.json' with { type: 'json' };

/** The parts of a JSON Schema node barrage reads. */
export interface JsonSchemaNode {
  readonly type?: string;
  readonly properties?: Readonly<Record<string, JsonSchemaNode>>;
  /** A record's values (`false` on a strict object). */
  readonly additionalProperties?: JsonSchemaNode | boolean;
  readonly items?: JsonSchemaNode;
  readonly anyOf?: readonly JsonSchemaNode[];
  readonly oneOf?: readonly JsonSchemaNode[];
  readonly const?: unknown;
  readonly default?: unknown;
}

/** The committed document, typed for reading. */
export const CONFIG_JSON_SCHEMA = committed as unknown as JsonSchemaNode & {
  readonly properties: Readonly<Record<string, JsonSchemaNode>>;
};

/** For a union node, the variant tagged with `type` (else all object variants' keys together). */
export function chooseVariant(node: JsonSchemaNode, value: unknown): JsonSchemaNode | undefined {
  const variants = node.oneOf ?? node.anyOf;
  if (variants === undefined) return node;
  const type =
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as { type?: unknown }).type
      : undefined;
  const objects = variants.filter((v) => v.properties !== undefined);
  const tagged = objects.find(
    (v) => v.properties?.type?.const !== undefined && v.properties.type.const === type,
  );
  if (tagged !== undefined) return tagged;
  if (Array.isArray(value)) return variants.find((v) => v.items !== undefined) ?? node;
  if (objects.length === 0) return variants.find((v) => v.items !== undefined) ?? node;
  return {
    properties: Object.assign({}, ...objects.map((o) => o.properties)) as Record<
      string,
      JsonSchemaNode
    >,
  };
}
