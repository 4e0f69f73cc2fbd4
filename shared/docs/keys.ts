/**
 * Key documentation by dialect id (the docs generator and tests ask this way): the lookups and
 * rendering of features/kit/keys.ts, for the registered module of that id.
 */
import type { Dialect } from '../basics';
import { dialectModule } from '../dialects';
import type { DialectModule } from '../dialects/module';
import type { KeyDoc } from './key-doc';
import { keyDocMarkdownOf, keyDocOf, keyReferenceMarkdownOf, keysUnder } from '../features/kit/keys';

export type { KeyDoc } from './key-doc';
export { headingAnchor, KEY_DOCS_BASE_URL, pathPattern } from '../features/kit/keys';

function moduleOf(dialect: Dialect): DialectModule {
  const module = dialectModule(dialect);
  if (!module) throw new Error(`no dialect \`${dialect}\` is registered`);
  return module;
}

/** The documentation of the key at this path (the key's own path, e.g. `[section, 'tools']`). */
export function keyDoc(dialect: Dialect, path: readonly (string | number)[]): KeyDoc | undefined {
  return keyDocOf(moduleOf(dialect), path);
}

/** The keys a mapping at this path may hold (the mapping's path, e.g. `[section]`). */
export function keysAt(dialect: Dialect, parentPath: readonly (string | number)[]): KeyDoc[] {
  return keysUnder(moduleOf(dialect), parentPath);
}

/** Markdown for hover and completion documentation. */
export function keyDocMarkdown(dialect: Dialect, path: readonly (string | number)[], doc: KeyDoc): string {
  return keyDocMarkdownOf(moduleOf(dialect), path, doc);
}

/** The key reference page of a dialect (`docs/keys/<dialect>.md`). */
export function keyReferenceMarkdown(dialect: Dialect): string {
  return keyReferenceMarkdownOf(moduleOf(dialect));
}
