/**
 * Quill, an invented runtime that lives only here: YAML agent files under `.quill/agents/`,
 * three keys (`name`, `description`, `tools`), two built-in tools, one rule with a quick fix,
 * and a `quill:` section in `.subagents.yaml`. It is registered at run time
 * (`registerDialect`), which is how a fourth runtime would plug in; no product file names it.
 */
import type { DialectModule, Rule } from '../../shared';
import { findingOn, topLevelName } from '../../shared/dialects/common';
import { verdictOf } from '../../shared/dialects/verdict';
import { sectionOf } from '../../shared/config/types';
import { standardFixes } from '../../shared/fixes/plans';
import { ruleFactory } from '../../shared/rules/ids';
import { parseYamlFile } from '../../shared/text/document';
import { quickYamlName } from '../../shared/text/quick-name';
import { getProperty, isObject, stringItems, type AstNode } from '../../shared/text/tree';
import type { Finding } from '../../shared/types';

export interface QuillModel {
  root?: AstNode;
  tools: { text: string; node: AstNode }[];
}

interface QuillSettings {
  /** Tools every agent gets. */
  inkTools: string[];
}

const rule = ruleFactory('quill');
const QUILL_RULES = [
  rule('quill/duplicate-tool', 'error', 'A tool is listed twice in `tools`; Quill refuses the agent.'),
] as const;
type QuillRuleId = (typeof QUILL_RULES)[number]['id'];

const duplicateTool: Rule<QuillModel, QuillRuleId> = {
  ids: ['quill/duplicate-tool'],
  check(ctx) {
    const seen = new Set<string>();
    const out: Finding<QuillRuleId>[] = [];
    for (const entry of ctx.model.tools) {
      if (seen.has(entry.text))
        out.push(
          findingOn(ctx, 'quill/duplicate-tool', entry.node, `\`${entry.text}\` is listed twice; remove one.`, {
            removable: true,
          }),
        );
      seen.add(entry.text);
    }
    return out;
  },
  fixes: { 'quill/duplicate-tool': (req) => standardFixes(req, { removePreferred: true }) },
};

const readSettings = (raw: unknown): QuillSettings => ({
  inkTools: (raw as Partial<QuillSettings> | undefined)?.inkTools ?? [],
});

export const quill: DialectModule<QuillModel, 'quill'> = {
  id: 'quill',
  title: 'Quill',
  labels: { definition: 'Quill agent', files: 'Quill agent files' },
  displayOrder: 3,
  section: {
    schema: {
      description: 'Quill settings: the tools every agent gets.',
      type: 'object',
      additionalProperties: false,
      properties: { inkTools: { description: 'Tools every agent gets.', $ref: '#/definitions/names' } },
    },
    read: readSettings,
    toolLists: ['inkTools'],
  },
  files: { defaultGlobs: ['**/.quill/agents/*.yaml'], nearMisses: ['**/.quill/agents/*.yml'] },
  syntaxRule: 'syntax/yaml',
  tools: [
    { name: 'scribble', description: 'Writes a note.' },
    { name: 'erase', description: 'Removes a note.' },
  ],
  names: { of: (file, stem) => [topLevelName(file, stem)], quick: (text) => quickYamlName(text), clash: false },
  parse: (source) => parseYamlFile(source),
  model(ctx) {
    const root = isObject(ctx.file.root) ? ctx.file.root : undefined;
    const tools = stringItems(getProperty(root, 'tools')?.value).map(({ value, node }) => ({ text: value, node }));
    return { root, tools };
  },
  rules: [duplicateTool],
  ruleMeta: QUILL_RULES,
  resolve(ctx, outcome) {
    const { reasons, silenced } = verdictOf(outcome);
    const own = ctx.model.tools.map((t) => t.text);
    const ink = sectionOf(ctx.config, 'quill', readSettings).inkTools;
    const name = topLevelName(ctx.file, ctx.fileStem);
    return [
      {
        name: name.name,
        status: reasons.length ? 'rejected' : 'loads',
        tools: [...new Set([...own, ...ink])].sort(),
        removed: [],
        ...(reasons.length ? { reasons } : {}),
        ...(silenced.length ? { silenced } : {}),
        range: name.range,
      },
    ];
  },
  definitionsPerFile: 'one',
  editor: {
    keys: {
      table: {
        name: { key: 'name', type: 'string', presence: 'required', summary: 'The agent\u2019s name.', snippet: ' $1' },
        description: { key: 'description', type: 'string', summary: 'What the agent writes.', snippet: ' $1' },
        tools: { key: 'tools', type: 'list of tool names', summary: 'The tools the agent may use.', snippet: ' [$1]' },
      },
    },
    toolLists: ['tools'],
  },
  view: { icon: 'edit', tooltip: 'Quill agents, by folder', groupKind: 'folder' },
  skeleton: (name) => `name: \${1:${name}}\ndescription: \${2:what it writes}\ntools: [\${3:scribble}]\n`,
};
