/** The tools Picasso provides itself (docs/runtimes/picasso.md, the tool catalog). */
import type { BuiltinTool } from '../../catalog/catalog';

export const PICASSO_BUILTINS: readonly BuiltinTool[] = [
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
