/** The tools Profy provides itself, reserved names included (docs/runtimes/profy.md, the tool catalog). */
import type { BuiltinTool } from '../../catalog/catalog';

const profyReservedReasons: Record<string, string> = {
  delegate: 'cross-Expert delegation belongs to the main agent only',
  Delegate: 'cross-Expert delegation belongs to the main agent only',
  Task: 'the top-level dispatcher; subagents cannot start nested subagents',
  task: 'the top-level dispatcher; subagents cannot start nested subagents',
  plan_write: 'the plan belongs to the session, not to a subagent',
  suggest_plan_mode: 'mode changes belong to the session',
  suggest_build_mode: 'mode changes belong to the session',
};

export const PROFY_BUILTINS: readonly BuiltinTool[] = [
  { name: 'read', description: 'Reads a file.' },
  { name: 'grep', description: 'Searches file contents for a pattern.' },
  { name: 'glob', description: 'Finds files by glob pattern.' },
  ...Object.entries(profyReservedReasons).map(([name, why]) => ({
    name,
    description: `Reserved: ${why}. Never granted to a subagent.`,
    reserved: true,
    notes: ['Reserved: Profy never grants it to a subagent, also not through a glob.'],
  })),
];

/** Names never granted to a subagent, also not through a glob. */
export const PROFY_RESERVED = new Set(Object.keys(profyReservedReasons));
