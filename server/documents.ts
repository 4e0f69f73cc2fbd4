/**
 * Open documents: each one's analysis, cached per URI, document version and generation, and
 * its diagnostics, published with the document version.
 */
import { readRegularFile } from '../shared/node/read';
import { DiagnosticSeverity, TextDocuments, type Connection, type Diagnostic } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { analyze, type Analysis } from '../shared/engine';
import type { LoadedConfig } from '../shared/config/config';
import type { Configuration } from './configuration';
import type { DefinitionIndex } from './workspace-index';
import { pathToUri, uriToPath } from './uri';

/** Past this many diagnostics per document, the editor gets the most severe ones and a note. */
export const MAX_PUBLISHED_DIAGNOSTICS = 1000;

/** Keeps the most severe diagnostics (in position order) and says how many were left out. */
export function capDiagnostics(diagnostics: Diagnostic[], max = MAX_PUBLISHED_DIAGNOSTICS): Diagnostic[] {
  if (diagnostics.length <= max) return diagnostics;
  const ranked = diagnostics.map((d, i) => ({ d, i })).sort((a, b) => (a.d.severity ?? 1) - (b.d.severity ?? 1) || a.i - b.i);
  const kept = ranked.slice(0, max).sort((a, b) => a.i - b.i).map((x) => x.d);
  kept.unshift({
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    severity: DiagnosticSeverity.Information,
    source: 'subagents',
    message: `${diagnostics.length} problems in this file; the ${max} most severe are shown. Run \`subagents check\` for the full list.`,
  });
  return kept;
}

/** A document under this average analysis time (ms) is checked at once; a costlier one waits for a pause in typing. */
const CHEAP_ANALYSIS_MS = 8;
const TYPING_PAUSE_MS = 20;

export interface DocumentAnalysis {
  analysis: Analysis;
  config: LoadedConfig;
}

export class OpenDocuments {
  readonly text = new TextDocuments(TextDocument);
  /** Bumped whenever configuration, settings or the Polytoken names change: cached analyses are stale. */
  private generation = 0;
  private readonly cache = new Map<string, DocumentAnalysis & { version: number; generation: number }>();
  private readonly timers = new Map<string, { cancel(): void }>();
  /** Moving average of each document's analysis time, in ms. */
  private readonly cost = new Map<string, number>();
  private readonly loggedRuleErrors = new Set<string>();
  private shuttingDown = false;

  constructor(
    private readonly connection: Connection,
    private readonly configuration: Configuration,
    private readonly index: DefinitionIndex,
  ) {}

  /** The analysis of the document's current text, from the cache when still valid; undefined for unknown documents. */
  analysisFor(uri: string): DocumentAnalysis | undefined {
    const doc = this.text.get(uri);
    if (!doc) return undefined;
    const cached = this.cache.get(uri);
    if (cached && cached.version === doc.version && cached.generation === this.generation) return cached;
    const path = uriToPath(uri);
    if (!path) return undefined;
    const started = performance.now();
    const config = this.configuration.configFor(path);
    const folder = this.configuration.folderOf(path);
    const analysis = analyze({ text: doc.getText(), path, config, root: folder, workspace: this.index.workspaceIndex(), onRuleError: this.onRuleError });
    // A moving average, so one slow run (a GC pause) does not start debouncing.
    const took = performance.now() - started;
    const previous = this.cost.get(uri);
    this.cost.set(uri, previous === undefined ? took : previous * 0.7 + took * 0.3);
    if (this.index.updateFromAnalysis(path, uri, analysis)) {
      this.generation++;
      // Other open Polytoken definitions may be shadowed (or no longer) by this name.
      for (const other of this.text.all()) if (other.uri !== uri && this.cache.get(other.uri)?.analysis.kind === 'polytoken') this.schedule(other.uri);
      // This document's own shadowing does not depend on its own index entry: no need to redo it.
    }
    const entry = { version: doc.version, generation: this.generation, analysis, config };
    this.cache.set(uri, entry);
    return entry;
  }

  /** Publishes the document's diagnostics soon, replacing any publication already pending. */
  schedule(uri: string): void {
    const existing = this.timers.get(uri);
    if (existing) existing.cancel();
    // Cheap documents are checked at once (after the messages already received); costly ones
    // wait for a pause in typing.
    if ((this.cost.get(uri) ?? 0) < CHEAP_ANALYSIS_MS) {
      const handle = setImmediate(() => this.publish(uri));
      this.timers.set(uri, { cancel: () => clearImmediate(handle) });
    } else {
      const handle = setTimeout(() => this.publish(uri), TYPING_PAUSE_MS);
      this.timers.set(uri, { cancel: () => clearTimeout(handle) });
    }
  }

  /** Configuration, settings or the workspace's Polytoken names changed: re-check every open document. */
  invalidateAll(): void {
    this.generation++;
    for (const doc of this.text.all()) this.schedule(doc.uri);
  }

  /** Forgets a closed document and clears its diagnostics. */
  closed(uri: string): void {
    this.timers.get(uri)?.cancel();
    this.timers.delete(uri);
    this.cache.delete(uri);
    this.cost.delete(uri);
    this.connection.sendDiagnostics({ uri, diagnostics: [] });
  }

  versionOf(uri: string): number | undefined {
    return this.text.get(uri)?.version;
  }

  openPaths(): Set<string> {
    return new Set(this.text.all().map((d) => uriToPath(d.uri)).filter((p): p is string => !!p));
  }

  /** A file's text: the editor's when it is open, else the disk's. */
  readText = (path: string): string | undefined => {
    const uri = pathToUri(path);
    const open = this.text.all().find((d) => d.uri === uri || uriToPath(d.uri) === path);
    if (open) return open.getText();
    try {
      return readRegularFile(path);
    } catch {
      return undefined;
    }
  };

  shutdown(): void {
    this.shuttingDown = true;
    for (const t of this.timers.values()) t.cancel();
    this.timers.clear();
  }

  private publish(uri: string): void {
    this.timers.delete(uri);
    const doc = this.text.get(uri);
    if (!doc || this.shuttingDown) return;
    const result = this.analysisFor(uri);
    // Everything above runs synchronously, so this is the document's current version.
    this.connection.sendDiagnostics({ uri, version: doc.version, diagnostics: capDiagnostics(result?.analysis.diagnostics ?? []) });
  }

  /** A rule that throws is logged once per rule; the other rules still report. */
  private readonly onRuleError = (rule: string, error: unknown): void => {
    if (this.loggedRuleErrors.has(rule)) return;
    this.loggedRuleErrors.add(rule);
    const detail = error instanceof Error ? error.stack ?? error.message : String(error);
    this.connection.console.error(`subagents: rule ${rule} failed and was skipped: ${detail}`);
  };
}
