/**
 * Open documents: each one's analysis, cached per URI, and its diagnostics, published once per
 * settled version.
 *
 * `analysisFor` is a lookup: it computes a stale analysis but changes nothing else. A cached
 * analysis is valid for the document's version, the configuration generation, and the index
 * revision of the document's own Polytoken name (shadowing depends only on same-name
 * definitions). The index is updated in one explicit step when a document is published
 * (`publish`), and only the open documents whose name that update touched are checked again:
 * opening N definitions costs N analyses, not N²/2.
 */
import {
  DiagnosticSeverity,
  TextDocuments,
  type Connection,
  type Diagnostic,
  type TextEdit,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { analyze, type Analysis } from '../shared';
import type { LoadedConfig } from '../shared';
import { nameKeyOf } from '../shared';
import { fixAll } from '../shared';
import { minimalEdit } from '../shared';
import { nodeWorkspaceHost } from '../shared/node';
import { removedToolDiagnostics } from '../shared';
import type { Configuration } from './configuration';
import type { DefinitionIndex } from './workspace-index';
import { uriToPath } from './uri';

/** Past this many diagnostics per document, the editor gets the most severe ones and a note. */
export const MAX_PUBLISHED_DIAGNOSTICS = 1000;

/** Keeps the most severe diagnostics (in position order) and says how many were left out. */
export function capDiagnostics(diagnostics: Diagnostic[], max = MAX_PUBLISHED_DIAGNOSTICS): Diagnostic[] {
  if (diagnostics.length <= max) return diagnostics;
  const ranked = diagnostics
    .map((d, i) => ({ d, i }))
    .sort((a, b) => (a.d.severity ?? 1) - (b.d.severity ?? 1) || a.i - b.i);
  const kept = ranked
    .slice(0, max)
    .sort((a, b) => a.i - b.i)
    .map((x) => x.d);
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

interface CacheEntry extends DocumentAnalysis {
  version: number;
  generation: number;
  /** The name key of a definition whose names clash across files, and the index revision of that key its analysis saw. */
  name?: string;
  nameRevision: number;
}

export class OpenDocuments {
  readonly text = new TextDocuments(TextDocument);
  /** Bumped whenever configuration or settings change: every cached analysis is stale. */
  private generation = 0;
  private readonly cache = new Map<string, CacheEntry>();
  private readonly timers = new Map<string, { cancel(): void }>();
  /** Moving average of each document's analysis time, in ms. */
  private readonly cost = new Map<string, number>();
  /** Open documents by path, and the open Polytoken documents by registered name. */
  private readonly byPath = new Map<string, string>();
  private readonly byName = new Map<string, Set<string>>();
  private readonly nameOf = new Map<string, string>();
  private readonly loggedRuleErrors = new Set<string>();
  private shuttingDown = false;
  /** Told of each published analysis, after the index took it in (the workspace view's live summaries). */
  onPublished: ((uri: string, path: string, analysis: Analysis) => void) | undefined;

  constructor(
    private readonly connection: Connection,
    private readonly configuration: Configuration,
    private readonly index: DefinitionIndex,
  ) {
    this.text.onDidOpen((e) => {
      const path = uriToPath(e.document.uri);
      if (path) this.byPath.set(path, e.document.uri);
    });
  }

  /** The analysis of the document's current text, from the cache when still valid; undefined for unknown documents. */
  analysisFor(uri: string): DocumentAnalysis | undefined {
    const doc = this.text.get(uri);
    if (!doc) return undefined;
    const cached = this.cache.get(uri);
    if (
      cached &&
      cached.version === doc.version &&
      cached.generation === this.generation &&
      (cached.name === undefined || this.index.names.revisionOf(cached.name) === cached.nameRevision)
    ) {
      return cached;
    }
    const path = uriToPath(uri);
    if (!path) return undefined;
    const started = performance.now();
    const config = this.configuration.configFor(path);
    const folder = this.configuration.folderOf(path);
    const analysis = analyze({
      text: doc.getText(),
      path,
      config,
      root: folder,
      workspace: this.index.names.workspaceIndex(),
      onRuleError: this.onRuleError,
    });
    // A moving average, so one slow run (a GC pause) does not start debouncing.
    const took = performance.now() - started;
    const previous = this.cost.get(uri);
    this.cost.set(uri, previous === undefined ? took : previous * 0.7 + took * 0.3);
    const registered =
      analysis.kind && analysis.context ? nameKeyOf(analysis.kind, analysis.context.file, path) : undefined;
    const entry: CacheEntry = {
      version: doc.version,
      generation: this.generation,
      analysis,
      config,
      name: registered,
      nameRevision: registered === undefined ? 0 : this.index.names.revisionOf(registered),
    };
    this.cache.set(uri, entry);
    this.trackName(uri, registered);
    return entry;
  }

  /** Publishes the document's diagnostics soon, replacing any publication already pending. */
  schedule(uri: string): void {
    const existing = this.timers.get(uri);
    if (existing) existing.cancel();
    // Cheap documents are checked at once, after the messages already received; costly ones
    // wait for a pause in typing. The connection hands over one message per turn of the event
    // loop, so "at once" is two turns: a burst already received ends in one publication.
    if ((this.cost.get(uri) ?? 0) < CHEAP_ANALYSIS_MS) {
      let cancelled = false;
      setImmediate(() => {
        if (!cancelled) setImmediate(() => !cancelled && this.publish(uri));
      });
      this.timers.set(uri, { cancel: () => (cancelled = true) });
    } else {
      const handle = setTimeout(() => this.publish(uri), TYPING_PAUSE_MS);
      this.timers.set(uri, { cancel: () => clearTimeout(handle) });
    }
  }

  /** The index changed for these name keys: check again the open documents that carry them. */
  scheduleNames(names: Iterable<string>, except?: string): void {
    for (const name of names) for (const uri of this.byName.get(name) ?? []) if (uri !== except) this.schedule(uri);
  }

  /** Configuration or settings changed: re-check every open document. */
  invalidateAll(): void {
    this.generation++;
    for (const doc of this.text.all()) this.schedule(doc.uri);
  }

  /** Forgets a closed document, clears its diagnostics, and puts the disk's version back in the index. */
  closed(uri: string): void {
    this.timers.get(uri)?.cancel();
    this.timers.delete(uri);
    this.cache.delete(uri);
    this.cost.delete(uri);
    this.trackName(uri, undefined);
    const path = uriToPath(uri);
    if (path && this.byPath.get(path) === uri) this.byPath.delete(path);
    this.connection.sendDiagnostics({ uri, diagnostics: [] });
    if (path) this.scheduleNames(this.index.documentClosed(path));
  }

  /** "Fix all": every preferred fix applied until nothing changes, as one edit of the changed span. */
  fixAllEdits(uri: string): TextEdit[] | undefined {
    const doc = this.text.get(uri);
    const path = uriToPath(uri);
    if (!doc || !path) return undefined;
    const text = doc.getText();
    const result = fixAll({
      text,
      path,
      config: this.configuration.configFor(path),
      root: this.configuration.folderOf(path),
      workspace: this.index.names.workspaceIndex(),
      onRuleError: this.onRuleError,
    });
    return result.text === text ? [] : [minimalEdit(doc, text, result.text)];
  }

  versionOf(uri: string): number | undefined {
    return this.text.get(uri)?.version;
  }

  isOpen = (path: string): boolean => this.byPath.has(path);

  openPaths(): Iterable<string> {
    return this.byPath.keys();
  }

  /** A file's text: the editor's when it is open, else the disk's (regular files only). */
  readText = (path: string): string | undefined => this.openText(path) ?? nodeWorkspaceHost.readFile(path);

  /** The editor's text of an open file; undefined when it is not open. */
  openText = (path: string): string | undefined => {
    const uri = this.byPath.get(path);
    return uri ? this.text.get(uri)?.getText() : undefined;
  };

  shutdown(): void {
    this.shuttingDown = true;
    for (const t of this.timers.values()) t.cancel();
    this.timers.clear();
  }

  /** Analysis, then the one index update, then the diagnostics. */
  private publish(uri: string): void {
    this.timers.delete(uri);
    const doc = this.text.get(uri);
    if (!doc || this.shuttingDown) return;
    const result = this.analysisFor(uri) as CacheEntry | undefined;
    const path = uriToPath(uri);
    if (result && path) {
      const touched = this.index.updateFromAnalysis(path, uri, result.analysis);
      // Its own entry never shadows itself: its analysis stays valid.
      if (result.name !== undefined) result.nameRevision = this.index.names.revisionOf(result.name);
      this.scheduleNames(touched, uri);
      this.onPublished?.(uri, path, result.analysis);
    }
    // Everything above runs synchronously, so this is the document's current version.
    const findings = result?.analysis.diagnostics ?? [];
    const shown =
      result && this.configuration.settings.fadeRemovedTools
        ? findings.concat(removedToolDiagnostics(result.analysis))
        : findings;
    this.connection.sendDiagnostics({ uri, version: doc.version, diagnostics: capDiagnostics(shown) });
  }

  private trackName(uri: string, name: string | undefined): void {
    const old = this.nameOf.get(uri);
    if (old === name) return;
    if (old !== undefined) {
      const uris = this.byName.get(old);
      uris?.delete(uri);
      if (uris && !uris.size) this.byName.delete(old);
    }
    if (name === undefined) {
      this.nameOf.delete(uri);
      return;
    }
    this.nameOf.set(uri, name);
    let uris = this.byName.get(name);
    if (!uris) this.byName.set(name, (uris = new Set()));
    uris.add(uri);
  }

  /** A rule that throws is logged once per rule; the other rules still report. */
  private readonly onRuleError = (rule: string, error: unknown): void => {
    if (this.loggedRuleErrors.has(rule)) return;
    this.loggedRuleErrors.add(rule);
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    this.connection.console.error(`subagents: rule ${rule} failed and was skipped: ${detail}`);
  };
}
