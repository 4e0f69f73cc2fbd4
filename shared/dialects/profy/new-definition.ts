/** A new Profy definition, whole (the MCP server's `new-subagent` prompt). */
import { oneLine, type Skeleton } from '../../features/kit/new-definition';

export const newDefinition = (name: string, purpose: string): Skeleton => ({
  path: `${name}.expert.json`,
  language: 'json',
  text:
    JSON.stringify(
      {
        name,
        description: oneLine(purpose),
        delegatable: false,
        tools: ['read', 'grep', 'glob'],
        subagents: [{ name, description: oneLine(purpose), system_prompt: oneLine(purpose), tools: ['read', 'grep'] }],
      },
      null,
      2,
    ) + '\n',
  note: "a Profy subagent is an entry of an Expert's `subagents`: add the entry to the Expert that should dispatch to it when there is one (its `tools` are the main agent's toolset, which the entry's `tools` must stay within).",
});
