import { isDeepStrictEqual } from 'node:util';
import * as z from 'zod/mini';
import * as protocol from '@cabinet/protocol';

/** A JSON Schema (draft 2020-12, OpenAPI 3.1's dialect) as plain data. */
export type JsonSchema = Record<string, unknown>;

const COMPONENTS = '#/components/schemas/';

function isSchema(value: unknown): value is z.ZodMiniType {
  return typeof value === 'object' && value !== null && '_zod' in value;
}

function bare(schema: JsonSchema): JsonSchema {
  const { $schema: _s, $id: _i, ...rest } = schema;
  return rest;
}

/** One schema alone, every part inline; undefined when JSON Schema cannot say it (a transform). */
function standalone(schema: z.ZodMiniType, io: 'input' | 'output'): JsonSchema | undefined {
  try {
    return bare(z.toJSONSchema(schema, { target: 'draft-2020-12', io }) as JsonSchema);
  } catch {
    return undefined;
  }
}

/**
 * The protocol's zod schemas as JSON Schema: each exported schema a component under its export
 * name (what a reply is parsed as, `io: 'output'`), referenced from operations and from each
 * other. Request parts whose input form differs from that (defaults, transforms of query
 * strings) are inlined in their input form.
 */
export class ProtocolSchemas {
  readonly #names = new Map<z.ZodMiniType, string>();
  readonly #components: Record<string, JsonSchema>;
  readonly #used = new Set<string>();

  constructor() {
    const registry = z.registry<{ id: string }>();
    for (const [name, value] of Object.entries(protocol)) {
      // Schemas that only exist as transforms of strings (queries) are not components.
      if (!isSchema(value) || this.#names.has(value) || !standalone(value, 'output')) continue;
      this.#names.set(value, name);
      registry.add(value, { id: name });
    }
    const all = z.toJSONSchema(registry, {
      target: 'draft-2020-12',
      io: 'output',
      uri: (id) => `${COMPONENTS}${id}`,
    }) as { schemas: Record<string, JsonSchema> };
    this.#components = Object.fromEntries(
      Object.entries(all.schemas).map(([name, schema]) => [name, bare(schema)]),
    );
  }

  /** A reply's schema: a reference to its component, or inline when it is not a protocol export. */
  reply(schema: z.ZodMiniType): JsonSchema {
    const name = this.#names.get(schema);
    if (name) return this.#ref(name);
    const inline = standalone(schema, 'output');
    if (!inline) throw new Error('a reply schema JSON Schema cannot describe');
    return inline;
  }

  /** A request part's schema (body, query): its component when its input form is the same. */
  request(schema: z.ZodMiniType): JsonSchema {
    const input = standalone(schema, 'input');
    if (!input) throw new Error('a request schema JSON Schema cannot describe');
    const name = this.#names.get(schema);
    if (name && isDeepStrictEqual(input, standalone(schema, 'output'))) return this.#ref(name);
    return input;
  }

  /** The components the operations referenced, with those they reference in turn. */
  components(): Record<string, JsonSchema> {
    const wanted = [...this.#used];
    const kept: Record<string, JsonSchema> = {};
    while (wanted.length > 0) {
      const name = wanted.pop()!;
      if (kept[name]) continue;
      kept[name] = this.#components[name]!;
      for (const ref of JSON.stringify(kept[name]).matchAll(
        /"\$ref":"#\/components\/schemas\/([^"]+)"/g,
      )) {
        wanted.push(ref[1]!);
      }
    }
    return Object.fromEntries(Object.entries(kept).sort(([a], [b]) => a.localeCompare(b)));
  }

  #ref(name: string): JsonSchema {
    this.#used.add(name);
    return { $ref: `${COMPONENTS}${name}` };
  }
}
