/**
 * One reading of a Polytoken definition, built once per analysis: its mappings, its name and
 * every tool entry with its meaning, expansion and the catalog's verdict. Rules, resolution
 * and editor features read this model instead of walking the tree themselves.
 */
import { tokenizeTemplate, type TemplateToken } from './template';
import type { RuleContext } from '../../types';
import { getProperty, isArray, isObject, isString, stringItems, type AstNode, type AstProperty } from '../../text/tree';
import { entryFacts, type ToolListKey, type ToolMeaning, type UnknownTool } from './tools';
import { polytokenNames } from './names';

export type ObjectNode = AstNode & { properties: AstProperty[] };

export interface PolytokenToolEntry {
  list: ToolListKey;
  node: AstNode;
  text: string;
  meaning: ToolMeaning;
  /** What the entry grants in `tools`, read for `tools` entries only (undefined when the catalog cannot expand it). */
  expansion?: string[];
  /** Set when the catalog does not know the entry (polytoken/unknown-tool). */
  unknown?: UnknownTool;
}

export interface PolytokenModel {
  dialect: 'polytoken';
  /** The frontmatter's YAML does not parse: rules stay quiet, resolution uses what there is. */
  broken: boolean;
  /** The frontmatter mapping. */
  root?: ObjectNode;
  /** The `polytoken` mapping, when it is one. */
  poly?: ObjectNode;
  /** The `name` value node, when present. */
  nameNode?: AstNode;
  /**
   * `name` when it is a non-empty string (white space alone is polytoken/missing-name's, but still the registered
   * name).
   */
  name?: string;
  /** The name the runtime registers the definition under: `name`, else the file stem. */
  registeredName: string;
  inheritTools: boolean;
  /** Tool entries of the three lists, in file order. */
  entries: Record<ToolListKey, PolytokenToolEntry[]>;
  /** `tools` grants only literal names and nothing is inherited: every undeferred tool must be listed in `tools`. */
  literalGrantsOnly: boolean;
  /** The body's template, tokenized once (offsets into the file): polytoken/template-syntax and the editor read it. */
  template: TemplateToken[];
}

export function buildPolytokenModel(ctx: RuleContext<undefined>): PolytokenModel {
  const body = ctx.file.body;
  // A second guard: the parser gives no tree with a syntax/yaml finding today (test/polytoken-rules checks the quiet).
  // Stryker disable next-line all: equivalent while the parser keeps no tree of a broken frontmatter
  const broken = ctx.file.syntax.some((f) => f.rule === 'syntax/yaml');
  const root = isObject(ctx.file.root) ? ctx.file.root : undefined;
  const polyNode = getProperty(root, 'polytoken')?.value;
  const poly = isObject(polyNode) ? polyNode : undefined;
  const nameNode = getProperty(root, 'name')?.value;
  const name = isString(nameNode) && nameNode.value !== '' ? nameNode.value : undefined;
  const inherit = getProperty(poly, 'inherit_tools')?.value;
  const inheritTools = inherit?.kind === 'boolean' && inherit.value === true;
  const entriesOf = (list: ToolListKey): PolytokenToolEntry[] =>
    stringItems(getProperty(poly, list)?.value).map(({ value, node }) => {
      const { meaning, expansion, unknown } = entryFacts(value, list, ctx.catalog);
      return { list, node, text: value, meaning, expansion, unknown };
    });
  const entries = {
    tools: entriesOf('tools'),
    tools_deny: entriesOf('tools_deny'),
    undeferred_tools: entriesOf('undeferred_tools'),
  };
  const toolsNode = getProperty(poly, 'tools')?.value;
  // A `tools` of the wrong type is polytoken/invalid-value's; guessing what it grants would only add noise.
  const toolsReadable = !toolsNode || isArray(toolsNode) || toolsNode.kind === 'null';
  const literalGrantsOnly =
    !!poly && !inheritTools && toolsReadable && entries.tools.every((e) => e.meaning.kind === 'name');
  return {
    dialect: 'polytoken',
    broken,
    root,
    poly,
    nameNode,
    name,
    registeredName: polytokenNames.of(ctx.file, ctx.fileStem)[0].name,
    inheritTools,
    entries,
    literalGrantsOnly,
    template: body ? tokenizeTemplate(ctx.file.source.text.slice(body.start, body.end), body.start) : [],
  };
}

/** A `polytoken.<key>` property. */
export function polyProperty(model: PolytokenModel, key: string): AstProperty | undefined {
  return getProperty(model.poly, key);
}
