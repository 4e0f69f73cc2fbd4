/**
 * Editor snippets for new definitions, derived from each module's skeleton (never a hand copy
 * that drifts): scripts/gen-snippets.ts writes them to snippets/<language>.json, which
 * package.json contributes, and a test holds the files fresh.
 *
 * One snippet per dialect and definition language: the skeleton with the file's stem for the
 * name (`${TM_FILENAME_BASE}`, as every runtime without its own stem names a definition after its
 * file), the skeleton's own tab stops, and `include` set to the dialect's default globs of that
 * language, so that an editor that scopes snippets by file (recent VS Code; older versions ignore `include`) offers a
 * Picasso role only in Picasso files. JSON definitions get none: their files stay `json`, and a
 * snippet there would be offered in every JSON file of an older editor; the server completes
 * the same skeleton in an empty definition file instead.
 */
import { dialectModules } from '../dialects';
import type { DialectModule } from '../dialects/module';

/** One snippet, in the shape of a VS Code snippet file's entries. */
export interface DefinitionSnippet {
  prefix: string[];
  description: string;
  body: string[];
  /** The default globs of its dialect in this language: where the snippet is offered. */
  include: string[];
}

/** The snippets of one language, by name: what snippets/<language>.json holds. */
export interface SnippetFile {
  language: string;
  snippets: Record<string, DefinitionSnippet>;
}

/** The editor language of the definitions a glob matches; undefined: a language of other files too (JSON). */
export function definitionLanguage(glob: string): string | undefined {
  if (glob.endsWith('.md')) return 'subagents-markdown';
  if (/\.ya?ml$/.test(glob)) return 'subagents-yaml';
  return undefined;
}

/** The snippet variable an editor fills with the file's name up to its last dot. */
export const FILE_STEM_VARIABLE = '${TM_FILENAME_BASE}';

function snippetOf(module: DialectModule, include: string[]): DefinitionSnippet {
  return {
    prefix: [module.id, 'subagent'],
    description: `A new ${module.labels.definition} that loads: its name from the file, the description and tools to fill in.`,
    body: module.skeleton(FILE_STEM_VARIABLE).split('\n'),
    include,
  };
}

/** Every definition language's snippets, from the registered modules, in display order. */
export function definitionSnippets(): SnippetFile[] {
  const files = new Map<string, SnippetFile>();
  const modules = [...dialectModules()].sort((a, b) => a.displayOrder - b.displayOrder);
  for (const module of modules) {
    // A module whose runtime names a file other than up to its last dot (`.expert.json`) would
    // need its own stem in the snippet: none that has one has Markdown or YAML files today.
    if (module.files.stem) continue;
    const byLanguage = new Map<string, string[]>();
    for (const glob of module.files.defaultGlobs) {
      const language = definitionLanguage(glob);
      if (language) byLanguage.set(language, [...(byLanguage.get(language) ?? []), glob]);
    }
    for (const [language, globs] of byLanguage) {
      let file = files.get(language);
      if (!file) files.set(language, (file = { language, snippets: {} }));
      file.snippets[`New ${module.labels.definition}`] = snippetOf(module, globs);
    }
  }
  return [...files.values()].sort((a, b) => a.language.localeCompare(b.language));
}

/** The text of a snippet file, as the generator writes it. */
export function snippetFileText(file: SnippetFile): string {
  return JSON.stringify(file.snippets, null, 2) + '\n';
}
