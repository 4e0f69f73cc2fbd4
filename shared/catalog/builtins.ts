import type { Dialect } from '../basics';

export interface BuiltinTool {
  name: string;
  description: string;
  /** Polytoken: may not be listed in `tools_deny`. */
  undeniable?: boolean;
  /** Profy: never granted to a subagent. */
  reserved?: boolean;
}

const polytoken: BuiltinTool[] = [
  { name: 'file_read', description: 'Reads a file from the workspace.' },
  { name: 'glob', description: 'Finds files whose paths match a glob pattern.' },
  { name: 'grep', description: 'Searches file contents for a pattern.' },
  {
    name: 'exit_tool',
    description:
      'Finishes the subagent run; its payload is the result handed back to the parent. Registered for every subagent: never list it.',
    undeniable: true,
  },
  {
    name: 'progress_update',
    description: 'Records a short status snapshot for the parent; kept across compaction. Not a channel for results.',
    undeniable: true,
  },
  { name: 'job_status', description: 'Job control: reports the state of a background job.', undeniable: true },
  { name: 'job_result', description: 'Job control: fetches the result of a finished job.', undeniable: true },
  { name: 'job_cancel', description: 'Job control: cancels a running job.', undeniable: true },
  { name: 'job_block', description: 'Job control: waits until a job finishes.', undeniable: true },
  { name: 'list_jobs', description: 'Job control: lists the session\u2019s jobs.', undeniable: true },
  { name: 'tool_search', description: 'Looks up deferred tools and loads their full definitions.', undeniable: true },
  {
    name: 'subagent',
    description: 'Starts a subagent (needs `allow_subagent_spawn` in a subagent).',
    undeniable: true,
  },
  { name: 'skill', description: 'Loads a skill into the context.', undeniable: true },
  {
    name: 'switch_facet',
    description: 'Switches the main session\u2019s facet. Never available to a subagent: its facet is fixed at launch.',
  },
  { name: 'message_subagent', description: 'Sends a message to a running subagent\u2019s inbox.' },
];

const picasso: BuiltinTool[] = [
  { name: 'read_file', description: 'Reads a file.' },
  { name: 'grep', description: 'Searches file contents for a pattern.' },
  { name: 'glob', description: 'Finds files by glob pattern.' },
  { name: 'find_symbol', description: 'Finds the definition of a code symbol.' },
  { name: 'query_memory', description: 'Reads from agent memory (denied by `memory: none`).' },
  { name: 'write_memory', description: 'Writes to agent memory (denied by `memory: none` and `memory: read-only`).' },
  { name: 'create_file', description: 'Creates a file.' },
  { name: 'edit_file', description: 'Edits a file.' },
  { name: 'delete_file', description: 'Deletes a file.' },
];

const profyReservedReasons: Record<string, string> = {
  delegate: 'cross-Expert delegation belongs to the main agent only',
  Delegate: 'cross-Expert delegation belongs to the main agent only',
  Task: 'the top-level dispatcher; subagents cannot start nested subagents',
  task: 'the top-level dispatcher; subagents cannot start nested subagents',
  plan_write: 'the plan belongs to the session, not to a subagent',
  suggest_plan_mode: 'mode changes belong to the session',
  suggest_build_mode: 'mode changes belong to the session',
};

const profy: BuiltinTool[] = [
  { name: 'read', description: 'Reads a file.' },
  { name: 'grep', description: 'Searches file contents for a pattern.' },
  { name: 'glob', description: 'Finds files by glob pattern.' },
  ...Object.entries(profyReservedReasons).map(([name, why]) => ({
    name,
    description: `Reserved: ${why}. Never granted to a subagent.`,
    reserved: true,
  })),
];

export const BUILTIN_TOOLS: Record<Dialect, readonly BuiltinTool[]> = { polytoken, picasso, profy };

export const POLYTOKEN_UNDENIABLE = new Set(polytoken.filter((t) => t.undeniable).map((t) => t.name));
export const PROFY_RESERVED = new Set(Object.keys(profyReservedReasons));
