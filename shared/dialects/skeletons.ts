/**
 * A new subagent's starting point in each runtime: where its file goes and a definition that
 * loads as it is, to be filled in (the MCP server's `new-subagent` prompt). Kept in this one
 * place until each dialect module carries its own `skeleton()`.
 */
import type { Dialect } from '../basics';

export interface Skeleton {
  /** Where the file goes, relative to the project folder (posix). */
  path: string;
  /** The fence language of `text`. */
  language: 'markdown' | 'yaml' | 'json';
  /** A definition that loads without an error or a warning. */
  text: string;
  /** What is particular about this runtime's files, in one or two sentences. */
  note: string;
}

/** A YAML scalar for `value`: plain when it is a simple word, else a double-quoted (JSON) string. */
const yamlScalar = (value: string): string => (/^[A-Za-z][\w.-]*$/.test(value) ? value : JSON.stringify(value));

/** One line of text from a purpose (white space folded), for a description. */
const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim() || 'What this subagent does.';

const SKELETONS: Record<Dialect, (name: string, purpose: string) => Skeleton> = {
  polytoken: (name, purpose) => ({
    path: `.polytoken/subagents/${name}.md`,
    language: 'markdown',
    text: [
      '---',
      `name: ${yamlScalar(name)}`,
      `description: ${JSON.stringify(oneLine(purpose))}`,
      'polytoken:',
      '  tools: [file_read, grep]',
      '---',
      'You are a subagent. Your task:',
      '',
      '{{ prompt }}',
      '',
    ].join('\n'),
    note: "`name` must equal the file name; the body is a template in which `{{ prompt }}` is the caller's task.",
  }),
  picasso: (name, purpose) => ({
    path: `.picasso/agents/${name}.md`,
    language: 'markdown',
    text: [
      '---',
      `name: ${yamlScalar(name)}`,
      `invocation: ${JSON.stringify(`@${name}`)}`,
      'model: default',
      'tools: [read_file, grep]',
      'max_steps: 20',
      'max_depth: 0',
      `description: ${JSON.stringify(oneLine(purpose))}`,
      'when_to_use: When a parent needs this done.',
      'output_schema: { type: object }',
      `system_prompt: ${JSON.stringify(oneLine(purpose))}`,
      '---',
      '',
    ].join('\n'),
    note: '`name` is snake_case and matches the file name; the instructions go in `system_prompt` (a Markdown body is never read).',
  }),
  profy: (name, purpose) => ({
    path: `${name}.expert.json`,
    language: 'json',
    text:
      JSON.stringify(
        {
          name,
          description: oneLine(purpose),
          delegatable: false,
          tools: ['read', 'grep', 'glob'],
          subagents: [
            { name, description: oneLine(purpose), system_prompt: oneLine(purpose), tools: ['read', 'grep'] },
          ],
        },
        null,
        2,
      ) + '\n',
    note: "a Profy subagent is an entry of an Expert's `subagents`: add the entry to the Expert that should dispatch to it when there is one (its `tools` are the main agent's toolset, which the entry's `tools` must stay within).",
  }),
};

/** The skeleton of a new subagent `name` in `dialect`, its description taken from `purpose`. */
export function subagentSkeleton(dialect: Dialect, name: string, purpose: string): Skeleton {
  return SKELETONS[dialect](name, purpose);
}
