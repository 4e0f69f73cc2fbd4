import { newDefinition } from './new-definition';
import type { DialectModule } from '../module';
import { PICASSO_RULES } from './rule-meta';
import { PICASSO_BUILTINS } from './builtins';
import { picassoNames } from './names';
import { picassoEditor } from './editor';
import { parseMarkdownFile, parseYamlFile } from '../../text/document';
import { buildPicassoModel, type PicassoModel } from './model';
import { posix } from 'path';
import { duplicateRole, roleProject } from './rules/duplicate-role';
import { invalidHooks } from './rules/hooks';
import { invalidMemory } from './rules/memory';
import { invalidValue } from './rules/invalid-value';
import { markdownBody } from './rules/markdown-body';
import { missingKeys } from './rules/missing-keys';
import { nameRules } from './rules/name';
import { memoryConflict, toolsDenyOverlap, unknownTool } from './rules/tools';
import { unknownKey } from './rules/unknown-key';
import { resolvePicasso } from './resolve';
import { picassoSkeleton } from './skeleton';

/** Picasso (docs/runtimes/picasso.md). */
export const picasso: DialectModule<PicassoModel, 'picasso'> = {
  id: 'picasso',
  title: 'Picasso',
  labels: { definition: 'Picasso role', files: 'Picasso role files' },
  displayOrder: 1,
  files: {
    defaultGlobs: ['**/.picasso/agents/*.md', '**/apps/cli/agents/*.yaml', '**/apps/cli/agents/*.yml'],
    // A role file of one folder's kind in the other, or in a folder Picasso does not read.
    nearMisses: [
      '**/.picasso/agents/**/*.{md,yaml,yml}',
      '**/.picasso/{subagents,roles}/**/*.{md,yaml,yml}',
      '**/apps/cli/agents/**/*.{md,yaml,yml}',
    ],
    // The other role files of its project: picasso/duplicate-role.
    neighbourFolders: (path) => {
      const project = roleProject(path);
      return [posix.dirname(path), posix.join(project, '.picasso/agents'), posix.join(project, 'apps/cli/agents')];
    },
  },
  syntaxRule: 'syntax/yaml',
  syntaxMessages: {
    MULTIPLE_DOCS:
      'Picasso reads one YAML document per role file, so this `---` (or `...`) line starts a second document that is not part of the role and makes the file fail to parse; remove the line, or put the second role in a file of its own.',
  },
  tools: PICASSO_BUILTINS,
  names: picassoNames,
  // `.md`: frontmatter, or YAML throughout; an empty `.md` is an empty role (picasso/invalid-value), not a missing
  // frontmatter.
  parse: (source, path) =>
    path.endsWith('.md') && source.text.trim()
      ? parseMarkdownFile(source, { yamlWithoutFrontmatter: true })
      : parseYamlFile(source),
  model: buildPicassoModel,
  ruleMeta: PICASSO_RULES,
  rules: [
    invalidValue,
    missingKeys,
    nameRules,
    toolsDenyOverlap,
    invalidMemory,
    memoryConflict,
    invalidHooks,
    unknownKey,
    markdownBody,
    unknownTool,
    duplicateRole,
  ],
  resolve: resolvePicasso,
  definitionsPerFile: 'one',
  editor: picassoEditor,
  view: { icon: 'symbol-class', tooltip: 'Picasso roles, by folder', groupKind: 'folder' },
  newDefinition,
  skeleton: picassoSkeleton,
  warmUpSample: 'name: warm\ninvocation: "@warm"\nmodel: m\ntools: [grep]\nmax_steps: 1\nmax_depth: 0\nmemory: none\n',
};
