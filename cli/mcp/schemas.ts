/**
 * The input and output schemas of the MCP server's tools (zod, which the SDK turns into the JSON
 * Schemas clients see and checks every call and answer against). The outputs are the CLI's JSON
 * documents: `check --format json` and `resolve --format json`.
 */
import * as z from 'zod';
import { DIALECTS, type DefinitionStatus, type Dialect, type ResolveStatus, type SeverityName } from '../../shared';

const DIALECT_NAMES = DIALECTS as readonly Dialect[] as [Dialect, ...Dialect[]];
const SEVERITIES = ['error', 'warning', 'information', 'hint'] as const satisfies readonly SeverityName[];
const RESOLVE_STATUSES = ['loads', 'rejected', 'dropped'] as const satisfies readonly ResolveStatus[];
export const DEFINITION_STATUSES = [...RESOLVE_STATUSES, 'shadowed'] as const satisfies readonly DefinitionStatus[];

// Every name of the vocabularies above, or the build fails: a new status or severity must be added here.
type Missing<All, Listed> = Exclude<All, Listed> extends never ? true : never;
const complete: [
  Missing<SeverityName, (typeof SEVERITIES)[number]>,
  Missing<DefinitionStatus, (typeof DEFINITION_STATUSES)[number]>,
] = [true, true];
void complete;

/** At most this many paths or unsaved files per call: a check of more is a check of their folder. */
export const MAX_INPUTS = 1000;

const position = z.object({ line: z.number().int(), character: z.number().int() });
const range = z.object({ start: position, end: position });
const problemCounts = z.object({
  errors: z.number().int(),
  warnings: z.number().int(),
  information: z.number().int(),
  hints: z.number().int(),
});

const pathInput = z.string().min(1).max(4096);

export const checkInput = {
  paths: z
    .array(pathInput)
    .max(MAX_INPUTS)
    .optional()
    .describe(
      'Files, folders or glob patterns to check, relative to the first workspace root (or absolute inside a root). Default: the whole workspace, unless `files` is given.',
    ),
  files: z
    .array(
      z.object({
        path: pathInput.describe('Where the text would be saved; decides the runtime and the configuration.'),
        text: z.string().describe('The whole file text, unsaved.'),
      }),
    )
    .max(MAX_INPUTS)
    .optional()
    .describe(
      'Unsaved definitions, each checked as if saved at `path`, with the files around it (configuration, same-name definitions). Nothing is written.',
    ),
};

export const jsonReport = z.object({
  files: z.array(
    z.object({
      path: z.string(),
      dialect: z.enum([...DIALECT_NAMES, 'config']),
      diagnostics: z.array(z.object({ rule: z.string(), severity: z.enum(SEVERITIES), message: z.string(), range })),
    }),
  ),
  summary: z.object({
    files: z.number().int(),
    errors: z.number().int(),
    warnings: z.number().int(),
    information: z.number().int(),
    hints: z.number().int(),
  }),
});

export const checkOutput = jsonReport.extend({
  unreadable: z
    .array(z.object({ path: z.string(), message: z.string() }))
    .optional()
    .describe('Files that could not be read (too large, not a regular file, a link out of the workspace).'),
});

export const resolveInput = {
  path: pathInput.describe('The definition file, relative to the first workspace root (or absolute inside a root).'),
  text: z
    .string()
    .optional()
    .describe('Unsaved text to resolve instead of the file on disk (the file need not exist).'),
};

// Loose: a resolution may carry more fields than these (the engine adds them as runtimes need).
export const resolution = z.object({
  file: z.string(),
  dialect: z.enum(DIALECT_NAMES),
  definitions: z.array(
    z.looseObject({
      name: z.string(),
      status: z.enum(RESOLVE_STATUSES),
      tools: z.array(z.string()),
      unknown: z
        .array(z.string())
        .optional()
        .describe('The entries of `tools` the catalog does not know (the runtime likely has no such tool).'),
      removed: z.array(z.object({ tool: z.string(), by: z.string() })),
      undeferred: z.array(z.string()).optional(),
      unexpanded: z.array(z.string()).optional(),
      dropped: z.array(z.object({ entry: z.string(), reason: z.string() })).optional(),
      provenance: z.record(z.string(), z.array(z.string())).optional(),
      reasons: z.array(z.string()).optional(),
      silenced: z.array(z.string()).optional(),
      shadowedBy: z.string().optional(),
    }),
  ),
});

export const listInput = {
  dialect: z.enum(DIALECT_NAMES).optional().describe('Only the definitions of this runtime.'),
  status: z
    .enum(DEFINITION_STATUSES)
    .optional()
    .describe('Only the definitions with this status (what the runtime does with them).'),
};

export const listOutput = z.object({
  definitions: z.array(
    z.object({
      path: z.string(),
      name: z.string(),
      dialect: z.enum(DIALECT_NAMES),
      group: z.string().describe('The project or folder (Polytoken, Picasso) or the Expert (Profy) it belongs to.'),
      status: z.enum(DEFINITION_STATUSES),
      tools: z.number().int().describe('How many tools the runtime grants it.'),
      unknown: z.number().int().optional().describe('How many of those tools the catalog does not know.'),
      problems: problemCounts,
      line: z.number().int().describe('The line of its name (from 0).'),
      index: z.number().int().describe("Its position among the file's definitions (a Profy Expert's subagents)."),
      reasons: z.array(z.string()).optional(),
      silenced: z.array(z.string()).optional(),
      shadowedBy: z.string().optional(),
    }),
  ),
  counts: z.object(Object.fromEntries(DEFINITION_STATUSES.map((s) => [s, z.number().int()]))),
});

export const explainInput = {
  rule: z.string().min(1).max(200).describe('A rule id such as `polytoken/name-mismatch`, as diagnostics give it.'),
};

export const explainOutput = z.object({
  rule: z.string(),
  severity: z.enum(SEVERITIES).describe('Its default severity.'),
  summary: z.string(),
  docs: z.string().describe('The page on the web.'),
  markdown: z.string().describe('The whole page: what, why, bad, good, how to fix.'),
});

export const fixInput = {
  path: pathInput.describe('The definition or `.subagents.yaml` file to fix.'),
  text: z
    .string()
    .optional()
    .describe('Unsaved text to fix instead of the file on disk (the file need not exist yet).'),
  write: z
    .boolean()
    .optional()
    .describe('Write the result to `path` (default false: nothing is written, the diff and text are returned).'),
};

export const fixOutput = z.object({
  path: z.string(),
  applied: z.array(z.string()).describe('The rule id of each fix applied, in order.'),
  diff: z.string().describe('The changes as a unified diff (empty when no fix applies).'),
  text: z.string().describe('The whole text after the fixes.'),
  written: z.boolean().describe('Whether `path` was written.'),
  remaining: jsonReport.describe('What `check` reports on the fixed text: the problems no safe fix solves.'),
});
