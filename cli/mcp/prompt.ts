/** The `new-subagent` prompt: the steps to write a subagent of a runtime, and a skeleton that loads. */
import { dialectTitle, subagentSkeleton, type Dialect } from '../../shared';

export function newSubagentPrompt(dialect: Dialect, name: string, purpose: string): string {
  const skeleton = subagentSkeleton(dialect, name, purpose);
  const runtime = dialectTitle(dialect);
  if (!skeleton) return `There is no runtime \`${dialect}\`.`;
  return [
    `Write a ${runtime} subagent named \`${name}\`. Its purpose: ${purpose.trim() || '(not given)'}`,
    '',
    `In ${runtime}, ${skeleton.note}`,
    '',
    `1. Start from this skeleton, to be saved at \`${skeleton.path}\` in the project (it loads as it is):`,
    '',
    '```' + skeleton.language,
    skeleton.text.trimEnd(),
    '```',
    '',
    '2. Fill it in for the purpose: the description (when to hand it work), the instructions, and only the tools it needs (every tool listed is a permission granted).',
    `3. Before saving, call the \`check\` tool with \`files: [{ "path": "${skeleton.path}", "text": <the text> }]\`. For each problem, read its rule with \`explain_rule\` and fix it.`,
    `4. Call \`fix\` with the same \`path\` and \`text\` for the safe fixes; with \`write: true\` it saves the result.`,
    `5. Call \`resolve\` on the saved file: \`status\` must be \`loads\`, and \`tools\` exactly what the subagent needs.`,
    `The runtime's rules are in the \`subagents://runtimes/${dialect}\` resource.`,
  ].join('\n');
}
