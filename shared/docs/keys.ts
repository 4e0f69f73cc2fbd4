/**
 * Key documentation for hover, completion and docs/keys/: lookup by path and rendering. The
 * tables live with their dialect (`shared/dialects/<dialect>/keys.ts`).
 */
import type { Dialect } from '../basics';
import { DOCS_BASE_URL } from '../rules/registry';
import type { KeyDoc } from './key-doc';
import { EXIT_PAYLOAD_FIELDS, POLYTOKEN_KEYS, SCHEMA_KEYWORDS } from '../dialects/polytoken/keys';
import { PICASSO_KEYS } from '../dialects/picasso/keys';
import { PROFY_KEYS } from '../dialects/profy/keys';

export type { KeyDoc } from './key-doc';
export { EXIT_PAYLOAD_FIELDS, SCHEMA_KEYWORDS };

/** Where key documentation lives, next to the rule pages. */
export const KEY_DOCS_BASE_URL = DOCS_BASE_URL.replace(/\/rules$/, '/keys');

export function keyDocsUrl(dialect: Dialect, key: string): string {
  return `${KEY_DOCS_BASE_URL}/${dialect}.md#${headingAnchor(key)}`;
}


export const KEY_DOCS: Record<Dialect, Record<string, KeyDoc>> = { polytoken: POLYTOKEN_KEYS, picasso: PICASSO_KEYS, profy: PROFY_KEYS };

/** `['subagents', 0, 'tools']` → `subagents.[].tools`. */
export function pathPattern(path: readonly (string | number)[]): string {
  return path.map((s) => (typeof s === 'number' ? '[]' : s)).join('.');
}

/** True when the path lies inside a Polytoken `exit_tool_schema` (below the key itself). */
export function inExitSchema(dialect: Dialect, path: readonly (string | number)[]): boolean {
  return dialect === 'polytoken' && path[0] === 'polytoken' && path[1] === 'exit_tool_schema' && path.length > 2;
}

/** The documentation of the key at this path (the key's own path, e.g. `['polytoken', 'tools']`). */
export function keyDoc(dialect: Dialect, path: readonly (string | number)[]): KeyDoc | undefined {
  const own = KEY_DOCS[dialect][pathPattern(path)];
  if (own) return own;
  if (inExitSchema(dialect, path)) {
    const last = path[path.length - 1];
    const parentKey = path[path.length - 2];
    // Under `properties` every key is a field name, not a keyword.
    if (typeof last === 'string' && parentKey !== 'properties') return SCHEMA_KEYWORDS[last];
    if (typeof last === 'string' && parentKey === 'properties' && path.length === 4) return EXIT_PAYLOAD_FIELDS[last];
  }
  return undefined;
}

/** The keys a mapping at this path may hold (the mapping's path, e.g. `['polytoken']`). */
export function keysAt(dialect: Dialect, parentPath: readonly (string | number)[]): KeyDoc[] {
  if (inExitSchema(dialect, [...parentPath, '_'])) {
    if (parentPath[parentPath.length - 1] === 'properties') return parentPath.length === 3 ? Object.values(EXIT_PAYLOAD_FIELDS) : [];
    return Object.values(SCHEMA_KEYWORDS);
  }
  const prefix = pathPattern(parentPath);
  const out: KeyDoc[] = [];
  for (const [pattern, doc] of Object.entries(KEY_DOCS[dialect])) {
    const dot = pattern.lastIndexOf('.');
    const parent = dot < 0 ? '' : pattern.slice(0, dot);
    if (parent === prefix) out.push(doc);
  }
  return out;
}

const DIALECT_TITLE: Record<Dialect, string> = { polytoken: 'Polytoken', picasso: 'Picasso', profy: 'Profy' };

export function dialectTitle(dialect: Dialect): string {
  return DIALECT_TITLE[dialect];
}

/** Markdown for hover and completion documentation. */
export function keyDocMarkdown(dialect: Dialect, path: readonly (string | number)[], doc: KeyDoc): string {
  const facts = [`**${doc.key}**${doc.deprecated ? ' (deprecated)' : ''} \u2014 ${doc.type}`];
  const meta: string[] = [];
  if (doc.presence) meta.push(doc.presence);
  if (doc.default) meta.push(`default: ${doc.default}`);
  if (meta.length) facts.push(`*${meta.join(' \u00b7 ')}*`);
  facts.push(doc.summary);
  if (doc.runtime) facts.push(`${DIALECT_TITLE[dialect]}: ${doc.runtime}`);
  const anchor = typeof path[path.length - 1] === 'string' ? pathPattern(path).replace(/\.\[\]/g, '') : doc.key;
  facts.push(`[${DIALECT_TITLE[dialect]} key reference](${keyDocsUrl(dialect, anchor)})`);
  return facts.join('\n\n');
}

/**
 * The key reference page of a dialect (`docs/keys/<dialect>.md`), generated from the same
 * documentation hover shows; every hover link points at one of its headings.
 */
export function keyReferenceMarkdown(dialect: Dialect): string {
  const out = [`# ${DIALECT_TITLE[dialect]} keys`, '', `Every key a ${DIALECT_TITLE[dialect]} definition may hold, as the editor explains it on hover.`, ''];
  for (const [pattern, doc] of Object.entries(KEY_DOCS[dialect])) {
    const heading = pattern.replace(/\.\[\]/g, '');
    out.push(`## ${heading}`, '');
    out.push(`Type: ${doc.type}${doc.presence ? ` \u00b7 ${doc.presence}` : ''}${doc.default ? ` \u00b7 default: ${doc.default}` : ''}${doc.deprecated ? ' \u00b7 deprecated' : ''}`, '');
    out.push(doc.summary, '');
    if (doc.runtime) out.push(doc.runtime, '');
    if (doc.values?.length) out.push(`Values: ${doc.values.map((v) => `\`${v}\``).join(', ')}`, '');
  }
  return out.join('\n');
}

/** The anchor GitHub gives a heading (for links into the reference page). */
export function headingAnchor(heading: string): string {
  return heading.toLowerCase().replace(/[^a-z0-9_ -]/g, '').replace(/ /g, '-');
}
