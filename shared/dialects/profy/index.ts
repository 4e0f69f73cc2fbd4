import { newDefinition } from './new-definition';
import type { DialectModule } from '../module';
import { PROFY_RULES } from './rule-meta';
import { PROFY_BUILTINS } from './builtins';
import { profyNames } from './names';
import { profySection } from './settings';
import { profyEditor } from './editor';
import { profySkeleton } from './editor/completion';
import { parseJsonFile } from '../../text/document';
import { buildExpertModel, type ExpertModel } from './model';
import { resolveProfy } from './resolve';
import { reservedTool, unresolvedTool } from './rules/allowlist';
import { missingDelegationBrief } from './rules/delegation-brief';
import { duplicateKey } from './rules/duplicate-key';
import { duplicateName } from './rules/duplicate-name';
import { invalidValue } from './rules/invalid-value';
import { missingField } from './rules/missing-field';
import { invalidName, nameNotIdentifier, reservedName } from './rules/name';
import { selfDelegation } from './rules/self-delegation';
import { noTools } from './rules/no-tools';
import { notAnObject } from './rules/not-an-object';
import { toolsNotArray } from './rules/tools-not-array';
import { unknownKey } from './rules/unknown-key';
import { unknownToolset } from './rules/unknown-toolset';
import { whitelistCap } from './rules/whitelist-cap';

/** Profy (docs/runtimes/profy.md). */
const EXPERT_SUFFIX = '.expert.json';

export const profy: DialectModule<ExpertModel, 'profy'> = {
  id: 'profy',
  title: 'Profy',
  labels: { definition: 'Profy Expert', files: 'Profy Expert files' },
  displayOrder: 2,
  section: profySection,
  files: {
    defaultGlobs: ['**/*.expert.json'],
    // An Expert named or written another way: Profy reads JSON files ending in `.expert.json` only.
    nearMisses: ['**/expert.json', '**/*{-,_}expert.json', '**/*.experts.json', '**/*.expert.{jsonc,json5,yaml,yml}'],
    stem: (base) => (base.endsWith(EXPERT_SUFFIX) ? base.slice(0, -EXPERT_SUFFIX.length) : undefined),
  },
  syntaxRule: 'syntax/json',
  tools: PROFY_BUILTINS,
  names: profyNames,
  parse: (source) => parseJsonFile(source),
  model: buildExpertModel,
  ruleMeta: PROFY_RULES,
  rules: [
    notAnObject,
    missingField,
    invalidName,
    nameNotIdentifier,
    reservedName,
    toolsNotArray,
    reservedTool,
    unresolvedTool,
    noTools,
    duplicateName,
    whitelistCap,
    selfDelegation,
    duplicateKey,
    missingDelegationBrief,
    unknownKey,
    invalidValue,
    unknownToolset,
  ],
  resolve: resolveProfy,
  // An Expert that is not valid JSON cannot be published: none of its subagents exists.
  unparsableStatus: 'dropped',
  definitionsPerFile: 'many',
  editor: profyEditor,
  view: { icon: 'json', tooltip: 'Profy subagents, by Expert', groupKind: 'definition' },
  newDefinition,
  skeleton: profySkeleton,
  warmUpSample:
    '{"name":"w","description":"d","tools":["read"],"subagents":[{"name":"s","description":"d","system_prompt":"p","tools":["re*"]}]}',
};
