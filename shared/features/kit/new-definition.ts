/**
 * A new definition file, whole: where it goes, its text (a definition that loads without an
 * error or a warning, to be filled in) and what is particular about the runtime's files. The
 * MCP server's `new-subagent` prompt; each dialect module gives its own (`newDefinition`).
 */
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

/** One line of text from a purpose (white space folded), for a description. */
export const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim() || 'What this subagent does.';
