/** A new Polytoken definition, whole (the MCP server's `new-subagent` prompt). */
import { oneLine, type Skeleton } from '../../features/kit/new-definition';

/** A YAML scalar for `value`: plain when it is a simple word, else a double-quoted (JSON) string. */
const yamlScalar = (value: string): string => (/^[A-Za-z][\w.-]*$/.test(value) ? value : JSON.stringify(value));

export const newDefinition = (name: string, purpose: string): Skeleton => ({
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
});
