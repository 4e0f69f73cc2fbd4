import type { Rule } from '../../../engine';
import type { Finding } from '../../../types';
import { getProperty } from '../../../text/tree';
import { RECOMMENDED_KEYS, REQUIRED_KEYS } from '../constants';
import { roleRoot } from './util';

/** What to write for each key, used in messages and by the "add the key" quick fix. */
export const KEY_EXAMPLES: Record<string, string> = {
  name: 'name: my_role',
  invocation: 'invocation: "@my_role"',
  model: 'model: <model route>',
  tools: 'tools: [read_file, grep]',
  max_steps: 'max_steps: 30',
  max_depth: 'max_depth: 0',
  output_schema: 'output_schema: <result schema name>',
  description: 'description: <one line about the role>',
  when_to_use: 'when_to_use: <when a parent should dispatch to it>',
};

const REQUIRED_WHY: Record<string, string> = {
  name: 'the role has no identifier',
  invocation: 'the role has no `@` handle to be called by',
  model: 'the role has no default model route',
  tools: 'the role has no tool allowlist',
  max_steps: 'the role has no step cap',
  max_depth: 'the role has no cap on nested subagents',
};

const RECOMMENDED_WHY: Record<string, string> = {
  output_schema: 'its parent gets results without a declared structure',
  description: 'without a one-line summary of what it does',
  when_to_use: 'a parent has no guidance on when to dispatch work to it',
};

/** picasso/missing-required and picasso/missing-recommended: one diagnostic per absent key, on the first line. */
export const missingKeys: Rule = {
  ids: ['picasso/missing-required', 'picasso/missing-recommended'],
  check(ctx) {
    const root = roleRoot(ctx);
    // A file that does not parse may have lost keys to the error: syntax/yaml says what to fix first.
    if (!root || ctx.file.syntax.length) return [];
    const out: Finding[] = [];
    for (const key of REQUIRED_KEYS) {
      if (getProperty(root, key)) continue;
      out.push({
        rule: 'picasso/missing-required',
        range: ctx.file.source.firstLine(),
        message: `The required key \`${key}\` is missing, so ${REQUIRED_WHY[key]} and Picasso will not load it; add \`${KEY_EXAMPLES[key]}\`.`,
        data: { key, insertText: KEY_EXAMPLES[key] },
      });
    }
    for (const key of RECOMMENDED_KEYS) {
      if (getProperty(root, key)) continue;
      out.push({
        rule: 'picasso/missing-recommended',
        range: ctx.file.source.firstLine(),
        message: `The recommended key \`${key}\` is missing: the role still loads, but ${RECOMMENDED_WHY[key]}; add \`${KEY_EXAMPLES[key]}\`.`,
        data: { key, insertText: KEY_EXAMPLES[key] },
      });
    }
    return out;
  },
};
