import type { Finding } from '../results';
import type { GenericRuleId } from '../rules/ids';
import { findFrontmatter, type Frontmatter } from './frontmatter';
import { parseJson, type DuplicateKey } from './json';
import { SourceText } from './source';
import type { AstNode } from './tree';
import { parseYaml } from './yaml';

/** A definition or configuration file, parsed into the neutral tree. */
export interface ParsedFile {
  source: SourceText;
  format: 'yaml' | 'json';
  /** The definition's top-level value; undefined when nothing could be parsed. */
  root?: AstNode;
  /** syntax/* findings. */
  syntax: Finding[];
  /** The YAML parts of the file, where suppression comments count. */
  yamlRegions: { start: number; end: number }[];
  frontmatter?: Frontmatter;
  /** The Markdown body after the frontmatter. */
  body?: { start: number; end: number };
  /**
   * JSON only: keys that a later key of the same object overrides, in text order. The
   * tree holds the last occurrence, as JSON readers keep the last value.
   */
  duplicateKeys?: DuplicateKey[];
}

function syntaxFindings(
  source: SourceText,
  rule: GenericRuleId,
  errors: { start: number; end: number; message: string; code?: string }[],
): Finding[] {
  return errors.map((e) => ({
    rule,
    range: source.range(e.start, e.end),
    message: e.message,
    ...(e.code ? { data: { code: e.code } } : {}),
  }));
}

export function parseYamlFile(raw: string | SourceText): ParsedFile {
  const source = typeof raw === 'string' ? new SourceText(raw) : raw;
  const { root, errors } = parseYaml(source.text, 0);
  return {
    source,
    format: 'yaml',
    root,
    syntax: syntaxFindings(source, 'syntax/yaml', errors),
    yamlRegions: [{ start: 0, end: source.text.length }],
  };
}

export function parseJsonFile(raw: string | SourceText): ParsedFile {
  const source = typeof raw === 'string' ? new SourceText(raw) : raw;
  const { root, errors, duplicateKeys } = parseJson(source.text);
  const syntax: Finding[] = source.text.trim()
    ? syntaxFindings(source, 'syntax/json', errors)
    : [{ rule: 'syntax/json', range: source.firstLine(), message: 'The file is empty; a JSON object is expected.' }];
  return { source, format: 'json', root, syntax, yamlRegions: [], duplicateKeys };
}

/**
 * A Markdown file with YAML frontmatter. With `yamlWithoutFrontmatter`, a file that
 * has no closed frontmatter block is read as YAML throughout (Picasso's `.md` roles).
 */
export function parseMarkdownFile(
  raw: string | SourceText,
  options: { yamlWithoutFrontmatter?: boolean } = {},
): ParsedFile {
  const source = typeof raw === 'string' ? new SourceText(raw) : raw;
  const text = source.text;
  const frontmatter = findFrontmatter(text);
  if (frontmatter.kind !== 'closed') {
    if (options.yamlWithoutFrontmatter && text.trim()) return { ...parseYamlFile(source), frontmatter };
    const message =
      frontmatter.kind === 'none'
        ? 'The file has no frontmatter block; start it with a `---` line, the YAML keys, and a closing `---` line.'
        : 'The frontmatter block is never closed; add a `---` line after the YAML keys.';
    return {
      source,
      format: 'yaml',
      syntax: [{ rule: 'syntax/frontmatter', range: source.firstLine(), message }],
      yamlRegions: frontmatter.kind === 'unclosed' ? [{ start: frontmatter.yamlStart, end: text.length }] : [],
      frontmatter,
    };
  }
  const yamlText = text.slice(frontmatter.yamlStart, frontmatter.yamlEnd);
  const { root, errors } = parseYaml(yamlText, frontmatter.yamlStart);
  return {
    source,
    format: 'yaml',
    root,
    syntax: syntaxFindings(source, 'syntax/yaml', errors),
    yamlRegions: [{ start: frontmatter.yamlStart, end: frontmatter.yamlEnd }],
    frontmatter,
    body: { start: frontmatter.bodyStart, end: text.length },
  };
}
