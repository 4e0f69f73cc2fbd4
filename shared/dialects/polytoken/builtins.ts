/** The tools Polytoken provides itself (docs/runtimes/polytoken.md, the tool catalog). */
import type { BuiltinTool } from '../../catalog/catalog';

const LISTED: readonly BuiltinTool[] = [
  { name: 'file_read', description: 'Reads a file from the workspace.' },
  { name: 'glob', description: 'Finds files whose paths match a glob pattern.' },
  { name: 'grep', description: 'Searches file contents for a pattern.' },
  {
    name: 'exit_tool',
    description:
      'Finishes the subagent run; its payload is the result handed back to the parent. Registered for every subagent: never list it.',
    undeniable: true,
    notes: ['Registered for every subagent: never list it in `tools`.'],
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
    notes: ['Never granted to a subagent: listing it in `tools` or `undeferred_tools` rejects the definition.'],
  },
  { name: 'message_subagent', description: 'Sends a message to a running subagent\u2019s inbox.' },
];

/** Said on hover of every tool `tools_deny` may not name. */
const UNDENIABLE_NOTE = 'May not be listed in `tools_deny`: Polytoken rejects a definition that denies it.';

export const POLYTOKEN_BUILTINS: readonly BuiltinTool[] = LISTED.map((t) =>
  t.undeniable ? { ...t, notes: [UNDENIABLE_NOTE, ...(t.notes ?? [])] } : t,
);

/** The built-in tools `tools_deny` may not name. */
export const POLYTOKEN_UNDENIABLE = new Set(POLYTOKEN_BUILTINS.filter((t) => t.undeniable).map((t) => t.name));
