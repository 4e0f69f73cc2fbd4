/**
 * The shape of a key's documentation (hover, completion, docs/keys/). Each dialect writes its
 * own table beside its model (`shared/dialects/<dialect>/keys.ts`), in the project's own words,
 * and hands it over in its module (`DialectEditor.keys`).
 */
export interface KeyDoc {
  key: string;
  /** A short type description shown in hover and completion details. */
  type: string;
  default?: string;
  /** What the key does. */
  summary: string;
  /** What the runtime does with it (and what goes wrong). */
  runtime?: string;
  /** required / recommended / optional. */
  presence?: 'required' | 'recommended' | 'optional';
  /**
   * Completion body after the key, as an LSP snippet (YAML: after `key:`; JSON: after `"key": `).
   * `${INDENT}` stands for one level of indentation in YAML.
   */
  snippet?: string;
  /** Values offered for a scalar. */
  values?: readonly string[];
  /** Values offered as a snippet instead (Picasso's `hooks: skip` opens the mapping). */
  valueSnippets?: Readonly<Record<string, { detail: string; insert: string }>>;
  deprecated?: boolean;
}

const BOOL = ['true', 'false'] as const;
export const BOOLEAN_VALUES: readonly string[] = BOOL;

/** A list snippet: `[$1]`, or with a placeholder. */
export const listSnippet = (placeholder = '') => `[${placeholder ? `\${1:${placeholder}}` : '$1'}]`;
