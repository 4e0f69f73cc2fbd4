/**
 * Key documentation for hover, completion and docs/keys/: lookup by path in a dialect module's
 * table (`DialectEditor.keys`) and rendering. The tables live with their dialect.
 */
import type { DialectModule } from '../../dialects/module';
import type { KeyDoc } from '../../docs/key-doc';
import { DOCS_BASE_URL } from '../../rules/ids';

/** Where key documentation lives, next to the rule pages. */
export const KEY_DOCS_BASE_URL = DOCS_BASE_URL.replace(/\/rules$/, '/keys');

/** `['subagents', 0, 'tools']` → `subagents.[].tools`. */
export function pathPattern(path: readonly (string | number)[]): string {
  return path.map((s) => (typeof s === 'number' ? '[]' : s)).join('.');
}

export function keyDocsUrl(module: DialectModule, key: string): string {
  return `${KEY_DOCS_BASE_URL}/${module.id}.md#${headingAnchor(key)}`;
}

/** The documentation of the key at this path (the key's own path, e.g. `[section, 'tools']`). */
export function keyDocOf(module: DialectModule, path: readonly (string | number)[]): KeyDoc | undefined {
  const { table, docAt } = module.editor.keys;
  const pattern = pathPattern(path);
  const own = Object.prototype.hasOwnProperty.call(table, pattern) ? table[pattern] : undefined;
  return own ?? docAt?.(path);
}

/** The keys a mapping at this path may hold (the mapping's path, e.g. `[section]`). */
export function keysUnder(module: DialectModule, parentPath: readonly (string | number)[]): KeyDoc[] {
  const { table, under } = module.editor.keys;
  const special = under?.(parentPath);
  if (special) return special;
  const prefix = pathPattern(parentPath);
  const out: KeyDoc[] = [];
  for (const [pattern, doc] of Object.entries(table)) {
    const dot = pattern.lastIndexOf('.');
    const parent = dot < 0 ? '' : pattern.slice(0, dot);
    if (parent === prefix) out.push(doc);
  }
  return out;
}

/** Markdown for hover and completion documentation. */
export function keyDocMarkdownOf(module: DialectModule, path: readonly (string | number)[], doc: KeyDoc): string {
  const facts = [`**${doc.key}**${doc.deprecated ? ' (deprecated)' : ''} \u2014 ${doc.type}`];
  const meta: string[] = [];
  if (doc.presence) meta.push(doc.presence);
  if (doc.default) meta.push(`default: ${doc.default}`);
  if (meta.length) facts.push(`*${meta.join(' \u00b7 ')}*`);
  facts.push(doc.summary);
  if (doc.runtime) facts.push(`${module.title}: ${doc.runtime}`);
  const anchor = typeof path[path.length - 1] === 'string' ? pathPattern(path).replace(/\.\[\]/g, '') : doc.key;
  facts.push(`[${module.title} key reference](${keyDocsUrl(module, anchor)})`);
  return facts.join('\n\n');
}

/**
 * The key reference page of a dialect (`docs/keys/<dialect>.md`), generated from the same
 * documentation hover shows; every hover link points at one of its headings.
 */
export function keyReferenceMarkdownOf(module: DialectModule): string {
  const title = module.title;
  const out = [
    `# ${title} keys`,
    '',
    `Every key a ${title} definition may hold, as the editor explains it on hover.`,
    '',
  ];
  for (const [pattern, doc] of Object.entries(module.editor.keys.table)) {
    const heading = pattern.replace(/\.\[\]/g, '');
    out.push(`## ${heading}`, '');
    const facts = `${doc.presence ? ` \u00b7 ${doc.presence}` : ''}${doc.default ? ` \u00b7 default: ${doc.default}` : ''}`;
    out.push(`Type: ${doc.type}${facts}${doc.deprecated ? ' \u00b7 deprecated' : ''}`, '');
    out.push(doc.summary, '');
    if (doc.runtime) out.push(doc.runtime, '');
    if (doc.values?.length) out.push(`Values: ${doc.values.map((v) => `\`${v}\``).join(', ')}`, '');
  }
  return out.join('\n');
}

/** The anchor GitHub gives a heading (for links into the reference page). */
export function headingAnchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^a-z0-9_ -]/g, '')
    .replace(/ /g, '-');
}
