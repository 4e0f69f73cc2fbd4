import { newDefinition } from './new-definition';
import { posix } from 'path';
import type { DialectModule } from '../module';
import { POLYTOKEN_RULES } from './rule-meta';
import { parseMarkdownFile } from '../../text/document';
import { toPosix } from '../../files';
import { POLYTOKEN_BUILTINS } from './builtins';
import { polytokenNames } from './names';
import { polytokenSection, polytokenSettings } from './settings';
import { polytokenEditor } from './editor';
import { polytokenSkeleton } from './editor/completion';
import { buildPolytokenModel, type PolytokenModel } from './model';
import { resolvePolytoken } from './resolve';
import { exitSchemaRule, statusEnumRule } from './rules/exit-schema';
import { grantsRule } from './rules/grants';
import { literalListsRule } from './rules/literal-lists';
import { shadowedRule } from './rules/shadowed';
import { statusFieldOrderRule } from './rules/status-field-order';
import { autoFacetHintRule, emptySkillsAllowRule } from './rules/skills-and-hints';
import { invalidValueRule, nameRule, unknownKeyRule } from './rules/structure';
import { templateSyntaxRule } from './rules/template-syntax';
import { undeferredRule } from './rules/undeferred';
import { unknownToolRule } from './rules/unknown-tool';

/**
 * Polytoken (docs/runtimes/polytoken.md). Finding `data` beyond the common `replacement` /
 * `expected` (the rules' own fixes read the entry itself, so no `removable`):
 * - unknown-key: `moveTo: 'polytoken'` for a Polytoken setting written at the top level;
 * - undeferred-not-granted: `addTo: 'tools'` (the alternative fix to removing the entry);
 * - invalid-exit-schema: `reason`, ajv's message;
 * - unrecognized-status-enum: `suggestions` (recognized values, closest first), `field`, `synonymOf`;
 * - status-field-order: `field`, the earlier field, and `later`, the one whose enum it hides;
 * - template-syntax: `tag`, the block tag involved;
 * - shadowed: `by`, the absolute path of the definition that replaces this one.
 * While the frontmatter YAML does not parse, the frontmatter rules stay quiet (no follow-on noise).
 */
export const polytoken: DialectModule<PolytokenModel, 'polytoken'> = {
  id: 'polytoken',
  title: 'Polytoken',
  labels: { definition: 'Polytoken subagent', files: 'Polytoken definition files (Markdown with a frontmatter)' },
  displayOrder: 0,
  section: polytokenSection,
  files: {
    defaultGlobs: ['**/.polytoken/subagents/*.md'],
    // Other tools' folder names, and files below or beside the one folder Polytoken reads.
    nearMisses: [
      '**/.polytoken/agents/**/*.md',
      '**/.polytoken/subagent/**/*.md',
      '**/.polytoken/subagents/**/*.md',
      '**/.polytoken/subagents/*.{markdown,yaml,yml}',
    ],
    projectFolder: '.polytoken/subagents',
    discoveryPattern: '*.md',
    discoveryFolders: (loaded) =>
      polytokenSettings(loaded.config).subagentDirs.map((d) => posix.resolve(loaded.dir, toPosix(d))),
    // The configuration's project folder comes last in discovery order: it shadows `subagentDirs`.
    neighbourFolders: (path, loaded) => [posix.dirname(path), posix.join(loaded.dir, '.polytoken/subagents')],
    // Read for shadowing, never reported (docs/runtimes/polytoken.md, which files are definitions).
    globalFolder: {
      configured: ({ config }) => polytokenSettings(config).globalDir,
      underConfigHome: 'polytoken/subagents',
    },
  },
  syntaxRule: 'syntax/yaml',
  tools: POLYTOKEN_BUILTINS,
  names: polytokenNames,
  parse: (source) => parseMarkdownFile(source),
  model: buildPolytokenModel,
  ruleMeta: POLYTOKEN_RULES,
  rules: [
    nameRule,
    invalidValueRule,
    unknownKeyRule,
    grantsRule,
    literalListsRule,
    undeferredRule,
    exitSchemaRule,
    statusEnumRule,
    statusFieldOrderRule,
    autoFacetHintRule,
    emptySkillsAllowRule,
    unknownToolRule,
    templateSyntaxRule,
    shadowedRule,
  ],
  resolve: resolvePolytoken,
  definitionsPerFile: 'one',
  editor: polytokenEditor,
  view: {
    icon: 'markdown',
    tooltip: 'Polytoken subagents, by project (or discovery folder)',
    groupKind: 'project',
  },
  newDefinition,
  skeleton: polytokenSkeleton,
  warmUpSample:
    '---\nname: warm\ndescription: d\npolytoken:\n  tools: [grep, tag!ALL]\n  tools_deny: [glob]\n  exit_tool_schema:\n    type: object\n    properties:\n      status: { type: string, enum: [ok, x] }\n---\nbody {{ x }}\n',
};
