/** A new Picasso definition, whole (the MCP server's `new-subagent` prompt). */
import { oneLine, type Skeleton } from '../../features/kit/new-definition';

/** A YAML scalar for `value`: plain when it is a simple word, else a double-quoted (JSON) string. */
const yamlScalar = (value: string): string => (/^[A-Za-z][\w.-]*$/.test(value) ? value : JSON.stringify(value));

export const newDefinition = (name: string, purpose: string): Skeleton => ({
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
});
