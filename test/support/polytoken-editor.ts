/** A Polytoken definition and its configuration for test/editor-polytoken*.test.ts. */
import { configOf, editorAt } from './editor';

export const DEF = '/w/.polytoken/subagents/triage.md';
/** An MCP server with two tools and a catalog tool with a tag. */
export const CONFIG =
  'mcp:\n  github: [create_issue, list_issues]\ntools:\n  polytoken:\n    - { name: shell, tags: [exec] }\n';
export const config = (yaml = CONFIG) => configOf(yaml);
export const polytoken = editorAt({ path: DEF, config: config() });

/** A definition with these lines under `polytoken:`. */
export const def = (poly: string) => `---\nname: triage\ndescription: Reads an issue.\npolytoken:\n${poly}---\nBody.\n`;

export const GITHUB = '`mcp__github__create_issue`, `mcp__github__list_issues`';
