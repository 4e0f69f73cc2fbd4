import * as fs from 'fs';
import { posix } from 'path';
import type { Diagnostic } from 'vscode-languageserver-types';
import { analyze, DIALECT_MODULES, kindOf, unreadableReason, type Analysis, type WorkspaceIndex } from '../engine';
import type { LoadedConfig } from '../config/config';
import { isInGlobalDir, toPosix } from '../files';
import { SourceText } from '../text/source';
import type { ParsedFile } from '../text/document';
import { getValue } from '../text/tree';
import type { FileKind } from '../types';
import { ConfigResolver, type ConfigOptions } from './config-loader';
import { describeError, walkFiles } from './walk';

export interface CheckOptions extends ConfigOptions {
  /** Paths in reports are relative to this folder. */
  cwd: string;
  onRuleError?: (rule: string, error: unknown) => void;
}

export interface FileReport {
  /** Absolute, posix. */
  path: string;
  kind: FileKind;
  diagnostics: Diagnostic[];
  analysis?: Analysis;
}

export interface CheckRun {
  files: FileReport[];
  /** Paths that could not be read: an I/O error for the CLI's exit status. */
  ioErrors: { path: string; message: string }[];
}

export class MissingPathError extends Error {}

interface Candidate {
  path: string;
  kind: FileKind;
  config: LoadedConfig;
  root: string;
  text?: string;
  parsed?: ParsedFile;
}

/** Checks every definition under the given files and folders (SPEC §9 `check`). */
export function checkPaths(inputs: string[], options: CheckOptions): CheckRun {
  const cwd = toPosix(options.cwd);
  const resolver = new ConfigResolver(options);
  const ioErrors: CheckRun['ioErrors'] = [];
  const candidates: Candidate[] = [];
  const seen = new Set<string>();
  for (const input of inputs.length ? inputs : ['.']) {
    const abs = posix.resolve(cwd, toPosix(input));
    let stat: fs.Stats;
    try {
      stat = fs.statSync(abs);
    } catch (e) {
      throw new MissingPathError(`${input}: ${describeError(e)}`);
    }
    const root = stat.isDirectory() ? abs : posix.dirname(abs);
    const files = stat.isDirectory() ? walkFiles(abs, ioErrors) : [abs];
    for (const path of files) {
      if (seen.has(path)) continue;
      seen.add(path);
      const config = resolver.forFile(path);
      // The dialect comes from the path alone, also for a file named on the command line
      // or a folder below the workspace root (`check .polytoken`): the default globs start
      // with `**/`, so the whole path is tried when the part below `root` does not match.
      const kind = kindOf({ path, config, root }) ?? kindOf({ path, config });
      if (!kind || isInGlobalDir(path, config)) continue;
      candidates.push({ path, kind, config, root });
    }
  }
  for (const c of candidates) {
    try {
      c.text = fs.readFileSync(c.path, 'utf8');
    } catch (e) {
      ioErrors.push({ path: c.path, message: describeError(e) });
    }
  }
  const readable = candidates.filter((c) => c.text !== undefined);
  const workspace = buildIndex(readable);
  const files: FileReport[] = readable.map((c) => {
    const analysis = analyze({ text: c.text!, path: c.path, config: c.config, root: c.root, kind: c.kind, workspace, parsed: c.parsed, onRuleError: options.onRuleError });
    return { path: c.path, kind: c.kind, diagnostics: analysis.diagnostics, analysis };
  });
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, ioErrors };
}

/** The name a Polytoken definition registers under: its `name`, else its file name. */
export function polytokenName(parsed: ParsedFile | undefined, path: string): string {
  const name = getValue(parsed?.root, 'name');
  return name?.kind === 'string' && name.value ? String(name.value) : posix.basename(path, '.md');
}

/**
 * Polytoken definitions for shadowing: the checked ones (parsed once, the parse is
 * reused by the check) and those in the global folder and `subagentDirs`.
 */
function buildIndex(candidates: Candidate[]): WorkspaceIndex {
  const entries = new Map<string, string>();
  const extraDirs = new Set<string>();
  for (const c of candidates) {
    if (c.kind !== 'polytoken') continue;
    if (!unreadableReason(c.text!)) c.parsed = DIALECT_MODULES.polytoken.parse(new SourceText(c.text!), c.path);
    entries.set(c.path, polytokenName(c.parsed, c.path));
    if (c.config.globalDir) extraDirs.add(c.config.globalDir);
    for (const d of c.config.config.polytoken.subagentDirs) extraDirs.add(posix.resolve(c.config.dir, toPosix(d)));
  }
  for (const dir of extraDirs) {
    let names: string[];
    try {
      names = fs.readdirSync(dir).filter((n) => n.endsWith('.md'));
    } catch {
      continue; // Polytoken skips missing folders too.
    }
    for (const n of names) {
      const path = posix.join(dir, n);
      if (entries.has(path)) continue;
      try {
        const text = fs.readFileSync(path, 'utf8');
        if (unreadableReason(text)) continue;
        entries.set(path, polytokenName(DIALECT_MODULES.polytoken.parse(new SourceText(text), path), path));
      } catch {
        // An unreadable file in a discovery folder cannot shadow anything we can show.
      }
    }
  }
  return { polytoken: [...entries].map(([path, name]) => ({ path, name })) };
}
