import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { nodeAtPath, toPlain, type AstNode } from '../text/tree';
import { VALIDATORS_BY_ID } from './validators.generated';
import { onForgetMemos } from '../memos';

export interface SchemaProblem {
  node: AstNode;
  /** A dotted path such as `polytoken.tools[0]`, for messages. */
  label: string;
  keyword: string;
  message: string;
  params: Record<string, unknown>;
}

// The schemas of schemas/ come compiled (scripts/gen-validators.mjs, same options); any other
// is compiled on first use, by an Ajv made on first use.
let ajv: Ajv | undefined;
let compiled = new WeakMap<object, ValidateFunction>();
onForgetMemos(() => {
  ajv = undefined;
  compiled = new WeakMap();
});

function validatorFor(schema: object): ValidateFunction {
  const id = (schema as { $id?: unknown }).$id;
  const precompiled = typeof id === 'string' && Object.hasOwn(VALIDATORS_BY_ID, id) ? VALIDATORS_BY_ID[id] : undefined;
  if (precompiled) return precompiled as ValidateFunction;
  ajv ??= new Ajv({ allErrors: true, strict: false });
  return ajv.compile(schema);
}

/** Validates a tree against a JSON Schema and maps every error back to its node. */
export function validateNode(schema: object, root: AstNode): SchemaProblem[] {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = validatorFor(schema);
    compiled.set(schema, validate);
  }
  if (validate(toPlain(root))) return [];
  return collapse(validate.errors ?? []).map((error) => {
    const path = pointerToPath(error.instancePath);
    let node = root;
    let found = path;
    while (found.length && !nodeAtPath(root, found)) found = found.slice(0, -1);
    node = nodeAtPath(root, found) ?? root;
    return {
      node,
      label: label(path),
      keyword: error.keyword,
      message: error.message ?? 'is invalid',
      params: error.params as Record<string, unknown>,
    };
  });
}

/**
 * Where a plain value breaks the schema, as paths to drop: a key the schema does not allow (its
 * key's path), else the value the error is about. Empty when the value is valid; `[]` among
 * them when the value as a whole is wrong.
 */
export function invalidPaths(schema: object, value: unknown): (string | number)[][] {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = validatorFor(schema);
    compiled.set(schema, validate);
  }
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => {
    const path = pointerToPath(e.instancePath);
    if (e.keyword === 'additionalProperties') return [...path, String(e.params.additionalProperty)];
    if (e.keyword === 'propertyNames') return [...path, String(e.params.propertyName)];
    return path;
  });
}

/** anyOf/oneOf produce one error per branch; keep the most specific one per location. */
function collapse(errors: ErrorObject[]): ErrorObject[] {
  const byPath = new Map<string, ErrorObject[]>();
  for (const e of errors) {
    const list = byPath.get(e.instancePath) ?? [];
    list.push(e);
    byPath.set(e.instancePath, list);
  }
  const out: ErrorObject[] = [];
  for (const list of byPath.values()) {
    const specific = list.filter((e) => e.keyword !== 'anyOf' && e.keyword !== 'oneOf' && e.keyword !== 'if');
    const types = specific.filter((e) => e.keyword === 'type');
    if (types.length > 1) {
      const allowed = types.map((e) => String(e.params.type)).join(' or ');
      out.push({ ...types[0], message: `must be ${allowed}` });
      for (const e of specific) if (e.keyword !== 'type') out.push(e);
    } else {
      for (const e of specific.length ? specific : list.slice(0, 1)) out.push(e);
    }
  }
  return out;
}

export function pointerToPath(pointer: string): (string | number)[] {
  if (!pointer) return [];
  return pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

function label(path: (string | number)[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out ? `.${p}` : p;
  return out || 'the document';
}

/** Ajv's "must be string" as a sentence about the key. */
export function describeProblem(p: SchemaProblem): string {
  let what = p.message;
  if (p.keyword === 'type') what = `must be ${article(String(p.params.type))}`;
  if (p.keyword === 'enum')
    what = `must be one of ${(p.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
  if (p.keyword === 'additionalProperties') what = `has an unknown key \`${String(p.params.additionalProperty)}\``;
  return `\`${p.label}\` ${what}.`;
}

function article(type: string): string {
  const words: Record<string, string> = {
    string: 'a string',
    array: 'a list',
    object: 'a mapping',
    boolean: 'true or false',
    integer: 'an integer',
    number: 'a number',
    null: 'null',
  };
  return type
    .split(',')
    .map((t) => words[t] ?? t)
    .join(' or ');
}
