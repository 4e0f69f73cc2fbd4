import Ajv, { type ErrorObject } from 'ajv';
import Ajv2019 from 'ajv/dist/2019';
import Ajv2020 from 'ajv/dist/2020';
import { distance } from 'fastest-levenshtein';
import { draft07 as draft07Meta } from '../../../schema/meta-validator.generated';
import { pointerToPath } from '../../../schema/validate';
import { isArray, isObject, isString, nodeAtPath, toPlain, type AstNode } from '../../../text/tree';
import { findingOn } from '../../common';
import { removeFix, replaceFix, standardFixes } from '../../../fixes/plans';
import { STATUS_FAMILIES, STATUS_FIELDS, statusFamily } from '../constants';
import { polyProperty } from '../model';
import { readable, type PolytokenRule, type PolytokenFinding } from '../util';
import { onForgetMemos } from '../../../memos';

export type Draft = 'draft-07' | '2019-09' | '2020-12';

interface SchemaVerdict {
  ok: boolean;
  reason?: string;
  /** Where in the schema the problem is (keys and indexes), when ajv says. */
  path?: (string | number)[];
  /** An unresolvable `$ref`. */
  missingRef?: string;
}

const validators = new Map<Draft, Ajv>();
function ajvFor(draft: Draft): Ajv {
  let ajv = validators.get(draft);
  // Stryker disable next-line ConditionalExpression: a memo; a new Ajv gives the same verdicts, only slower
  if (!ajv) {
    // Every schema is checked against its meta-schema before it is compiled (validateSchema below), so compile does not
    // check again; strict mode off: keywords ajv does not know (`x-note`, `example`) are allowed by JSON Schema.
    const options = { strict: false, validateFormats: false, validateSchema: false };
    ajv = draft === '2020-12' ? new Ajv2020(options) : draft === '2019-09' ? new Ajv2019(options) : new Ajv(options);
    validators.set(draft, ajv);
  }
  return ajv;
}

interface MetaValidator {
  (schema: unknown): boolean;
  errors?: ErrorObject[] | null;
}

/**
 * Whether `schema` is valid against its draft's meta-schema, and ajv's errors if not: draft-07's compiled ahead of time
 * (scripts/gen-validators.mjs).
 */
export function validateSchema(
  draft: Draft,
  schema: Record<string, unknown>,
): { valid: boolean; errors?: ErrorObject[] | null } {
  if (draft === 'draft-07') {
    const meta = draft07Meta as MetaValidator;
    const valid = meta(schema);
    return { valid, errors: meta.errors };
  }
  const ajv = ajvFor(draft);
  // The draft's own meta-schema, whatever spelling of its URI `$schema` has (https, no `#`).
  const valid = ajv.validateSchema({ ...schema, $schema: undefined }) as boolean;
  return { valid, errors: ajv.errors };
}

/** The draft `$schema` names; undefined for none, or one ajv has no meta-schema for (draft-04, a custom URI). */
function draftOf(schema: Record<string, unknown>): Draft | undefined {
  const s = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (s.includes('2020-12')) return '2020-12';
  if (s.includes('2019-09')) return '2019-09';
  return /draft-07/.test(s) ? 'draft-07' : undefined;
}

/** Past this many nodes an exit schema is not compiled (a schema for one payload is a few dozen). */
const MAX_SCHEMA_NODES = 5_000;

/** The number of nodes under `root`, counting stops past `max`. */
function nodeCount(root: AstNode, max: number): number {
  let count = 0;
  const stack: AstNode[] = [root];
  // Stryker disable next-line ConditionalExpression: counting on past `max` only costs time, the answer is still > max
  while (stack.length && count <= max) {
    const n = stack.pop()!;
    count++;
    for (const p of n.properties ?? []) stack.push(p.value);
    for (const i of n.items ?? []) stack.push(i);
  }
  return count;
}

/** Compiled verdicts, by the schema's JSON text: typing elsewhere in the file does not recompile. */
const verdicts = new Map<string, SchemaVerdict>();
const MAX_CACHED = 256;
onForgetMemos(() => {
  validators.clear();
  verdicts.clear();
});

export function checkExitSchema(schema: Record<string, unknown>): SchemaVerdict {
  const key = JSON.stringify(schema);
  const cached = verdicts.get(key);
  if (cached) return cached;
  const verdict = computeVerdict(schema);
  if (verdicts.size >= MAX_CACHED) verdicts.delete(verdicts.keys().next().value as string);
  verdicts.set(key, verdict);
  return verdict;
}

/** How many verdicts are kept: the memo is bounded (a test asks). */
export function cachedVerdictCount(): number {
  return verdicts.size;
}

function computeVerdict(schema: Record<string, unknown>): SchemaVerdict {
  // A `$schema` ajv has no meta-schema for is not the author's mistake: the body is checked as draft-07 (validateSchema
  // leaves `$schema` out, and compile, which does not validate the schema again, does not read it).
  const draft = draftOf(schema) ?? 'draft-07';
  const ajv = ajvFor(draft);
  try {
    const { valid, errors } = validateSchema(draft, schema);
    if (!valid && errors?.length) {
      const e = errors[0];
      const params = e.params as Record<string, unknown>;
      const allowed = Array.isArray(params.allowedValues)
        ? ` (${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')})`
        : '';
      return { ok: false, reason: `${e.message ?? 'is invalid'}${allowed}`, path: pointerToPath(e.instancePath) };
    }
    ajv.compile(schema);
    ajv.removeSchema(schema);
    return { ok: true };
  } catch (error) {
    const err = error as { message?: string; missingRef?: string; missingSchema?: string };
    try {
      ajv.removeSchema(schema);
    } catch {
      // Nothing was added.
    }
    return { ok: false, reason: (err.message ?? String(error)).split('\n')[0], missingRef: err.missingRef };
  }
}

function deepestNode(root: AstNode, path: (string | number)[]): { node: AstNode; path: (string | number)[] } {
  let found = path;
  while (found.length && !nodeAtPath(root, found)) found = found.slice(0, -1);
  return { node: nodeAtPath(root, found) ?? root, path: found };
}

function findRef(node: AstNode, ref: string): AstNode | undefined {
  for (const p of node.properties ?? []) {
    // ajv names the target resolved against the base URI (`other.json` → `http://x/other.json`).
    if (p.key === '$ref' && isString(p.value) && p.value.value !== '' && ref.endsWith(p.value.value)) return p.value;
    const inner = findRef(p.value, ref);
    if (inner) return inner;
  }
  for (const item of node.items ?? []) {
    const inner = findRef(item, ref);
    if (inner) return inner;
  }
  return undefined;
}

/** polytoken/invalid-exit-schema: `exit_tool_schema` compiled with ajv. */
export const exitSchemaRule: PolytokenRule = {
  ids: ['polytoken/invalid-exit-schema'],
  check(ctx) {
    const model = readable(ctx);
    const node = model && polyProperty(model, 'exit_tool_schema')?.value;
    if (!isObject(node)) return [];
    const size = nodeCount(node, MAX_SCHEMA_NODES);
    if (size > MAX_SCHEMA_NODES) {
      // ajv's meta-schema compares enum values pairwise: a 50,000-value enum takes minutes.
      return [
        findingOn(
          ctx,
          'polytoken/invalid-exit-schema',
          node.property?.keyNode ?? node,
          `\`exit_tool_schema\` holds more than ${MAX_SCHEMA_NODES.toLocaleString('en-US')} values, too many to be checked here; Polytoken still checks it when it loads the definition, so keep it small enough to read.`,
          { tooLarge: true },
          'information',
        ),
      ];
    }
    const verdict = checkExitSchema(toPlain(node) as Record<string, unknown>);
    if (verdict.ok) return [];
    let target: AstNode = node;
    let where = '';
    if (verdict.path?.length) {
      const deepest = deepestNode(node, verdict.path);
      target = deepest.node;
      where = ` at \`${deepest.path.join('.')}\``;
    } else if (verdict.missingRef) {
      target = findRef(node, verdict.missingRef) ?? node;
    }
    return [
      findingOn(
        ctx,
        'polytoken/invalid-exit-schema',
        target,
        `\`exit_tool_schema\` is not a valid JSON Schema${where} (${verdict.reason}), so Polytoken cannot use it to shape the exit payload; fix the schema so that it compiles.`,
        { reason: verdict.reason },
      ),
    ];
  },
};

const RECOGNIZED: readonly string[] = Object.values(STATUS_FAMILIES).flat();

/** Common words for each family, so that the suggestion means the same thing. */
const SYNONYMS: Record<string, keyof typeof STATUS_FAMILIES> = {
  succeeded: 'success',
  successful: 'success',
  pass: 'success',
  passed: 'success',
  complete: 'success',
  finished: 'success',
  good: 'success',
  resolved: 'success',
  yes: 'success',
  true: 'success',
  fail: 'failure',
  errored: 'failure',
  err: 'failure',
  broken: 'failure',
  crashed: 'failure',
  false: 'failure',
  no: 'failure',
  rejected: 'failure',
  aborted: 'cancelled',
  abort: 'cancelled',
  stopped: 'cancelled',
  interrupted: 'cancelled',
  cancel_requested: 'cancelled',
};

/** The family a common word stands for (`passed` → success); own keys only (`constructor` is a word like any other). */
function synonymFamily(value: string): keyof typeof STATUS_FAMILIES | undefined {
  const v = value.toLowerCase();
  return Object.prototype.hasOwnProperty.call(SYNONYMS, v) ? SYNONYMS[v] : undefined;
}

/** The recognized word a known synonym stands for (`passed` → `success`). */
function synonymCanonical(value: string): string | undefined {
  const family = synonymFamily(value);
  return family && STATUS_FAMILIES[family][0];
}

/** Recognized values, the closest first; a known synonym's word leads (`passed` → `success`). */
export function statusSuggestions(value: string): string[] {
  const v = value.toLowerCase();
  const distances = new Map(RECOGNIZED.map((r) => [r, distance(v, r)]));
  // Array.prototype.sort is stable: equally close values keep the families' order.
  const byDistance = [...RECOGNIZED].sort((a, b) => distances.get(a)! - distances.get(b)!);
  const lead = synonymCanonical(v);
  return lead ? [lead, ...byDistance.filter((r) => r !== lead)] : byDistance;
}

/** The status fields in the order findings come in. */
const REPORT_ORDER: readonly (typeof STATUS_FIELDS)[number][] = ['status', 'kind', 'outcome'];

/** "success (success, ok, ...); failure (...); cancelled (...)", for the message. */
const FAMILIES_TEXT = Object.entries(STATUS_FAMILIES)
  .map(([f, values]) => `${f} (${values.join(', ')})`)
  .join('; ');

/** polytoken/unrecognized-status-enum: one warning per enum value outside the families. */
export const statusEnumRule: PolytokenRule = {
  ids: ['polytoken/unrecognized-status-enum'],
  check(ctx) {
    const model = readable(ctx);
    const schema = model && polyProperty(model, 'exit_tool_schema')?.value;
    // Stryker disable next-line ConditionalExpression: a shortcut; nodeAtPath finds no enum in what is not a mapping
    if (!isObject(schema)) return [];
    const out: PolytokenFinding[] = [];
    for (const field of REPORT_ORDER) {
      const values = nodeAtPath(schema, ['properties', field, 'enum']);
      if (!isArray(values)) continue;
      for (const item of values.items) {
        if (!isString(item) || statusFamily(item.value)) continue;
        const suggestions = statusSuggestions(item.value);
        const family = synonymFamily(item.value);
        out.push(
          findingOn(
            ctx,
            'polytoken/unrecognized-status-enum',
            item,
            `\`${item.value}\` in the \`${field}\` enum is outside the status families Polytoken classifies — ${FAMILIES_TEXT} — so the model will use it and the runtime will refuse such an exit and ask for a retry; ${family ? `it means \`${STATUS_FAMILIES[family][0]}\`: use that` : 'use a recognized value (keep the detail in another property)'}, or add a \`success\` boolean property, which also lets Polytoken classify the result.`,
            {
              suggestions,
              replacement: suggestions[0],
              field,
              ...(family ? { synonymOf: STATUS_FAMILIES[family][0] } : {}),
            },
          ),
        );
      }
    }
    return out;
  },
  fixes: {
    // Only a known synonym (`passed` → `success`) is a preferred fix; a value merely spelled alike may mean something
    // else.
    'polytoken/unrecognized-status-enum': (req) => {
      const fixes = standardFixes(req).map((f) => ({ ...f, preferred: false }));
      const synonym = typeof req.data.synonymOf === 'string' ? req.data.synonymOf : undefined;
      if (synonym === undefined) return fixes;
      const node = req.node;
      // The family's word is there already, or an earlier synonym of it will become it: removing keeps the enum unique.
      const siblings = node?.parent ? (node.parent.items ?? []).filter(isString) : [];
      const first = siblings.find((n) => n.value === synonym || synonymCanonical(n.value) === synonym) ?? node;
      const preferred = first !== node ? removeFix(req, node, true) : replaceFix(req, synonym);
      return preferred ? [preferred, ...fixes.filter((f) => f.title !== preferred.title)] : fixes;
    },
  },
};
