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
 *
 * Identity (uri.ts): the client may open one file under several URIs (`a.md` and `%61.md`).
 * They are one file: the most recently changed text is what the index holds (the others never
 * write to it, so publishing one never re-checks another in a loop), and each URI gets the
 * diagnostics of its own text (shared when the texts are equal). A document of another scheme
 * (`git:`, `untitled:`) is analysed from its own text alone: no configuration read from disk, no
 * workspace index, no file edits, and it never stands in for the file at its path.
 */
import {
  DiagnosticSeverity,
  TextDocuments,
  type Connection,
  type Diagnostic,
  type TextEdit,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { analyze, type Analysis, type DocumentInput } from '../shared';
import type { LoadedConfig } from '../shared';
import { nameKeyOf } from '../shared';
import { fixAll } from '../shared';
import { minimalEdit } from '../shared';
import { readIfRegular, removedToolDiagnostics, type WorkspaceHost } from '../shared';
import type { Configuration } from './configuration';
import type { DefinitionIndex } from './workspace-index';
import { nextTurn } from './turn';
import { documentIdentity, type DocumentIdentity } from './uri';

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
  /** The document is a file on disk (a `file:` URI): fixes may rename it or edit files beside it. */
  onDisk: boolean;
}

interface CacheEntry extends DocumentAnalysis {
  version: number;
  generation: number;
  /**
   * The name key of a definition whose names clash across files, and the index revision of that key its analysis saw.
   */
  name?: string;
  nameRevision: number;
}

/** The open documents of one identity: one file on disk, or one resource of another scheme. */
interface Subject {
  identity: DocumentIdentity;
  /** Its open URIs (usually one). */
  uris: Set<string>;
  /** The one most recently opened or changed: its text is the file's, for the index. */
  latest: string;
}

export class OpenDocuments {
  readonly text = new TextDocuments(TextDocument);
  /** Bumped whenever configuration or settings change: every cached analysis is stale. */
  private generation = 0;
  private readonly cache = new Map<string, CacheEntry>();
  private readonly timers = new Map<string, { cancel(): void }>();
  /** Moving average of each document's analysis time, in ms. */
  private readonly cost = new Map<string, number>();
  /** Each open URI's subject; the subjects by identity key; those that are files on disk by path. */
  private readonly subjectOf = new Map<string, Subject>();
  private readonly subjects = new Map<string, Subject>();
  private readonly byPath = new Map<string, Subject>();
  /** The open Polytoken and Picasso files' URIs by registered name. */
  private readonly byName = new Map<string, Set<string>>();
  private readonly nameOf = new Map<string, string>();
  private readonly loggedRuleErrors = new Set<string>();
  private shuttingDown = false;
  /** Told of each published analysis, after the index took it in (the workspace view's live summaries). */
  onPublished: ((uri: string, path: string, analysis: Analysis) => void) | undefined;

  /** The client pulls diagnostics (LSP 3.17): they are not sent, the last shown are kept to tell a change. */
  pulled = false;
  private readonly lastShown = new Map<string, string>();
  /** Pull: a document was checked again; `changed`: its diagnostics differ from the last shown. */
  onChecked: ((uri: string, changed: boolean) => void) | undefined;

  /** While set, publishing waits (the first index build is loading the files read through the client). */
  private held: Set<string> | undefined;

  constructor(
    private readonly connection: Connection,
    private readonly configuration: Configuration,
    private readonly index: DefinitionIndex,
    /** How closed files are read (the disk, or the client's files). */
    private readonly files: WorkspaceHost,
  ) {
    // Registered before the server's own listeners: they see the subject already up to date.
    this.text.onDidOpen((e) => this.opened(e.document.uri));
    this.text.onDidChangeContent((e) => {
      const subject = this.subjectOf.get(e.document.uri);
      if (subject) subject.latest = e.document.uri;
    });
  }

  /**
   * The open URI of the same document: `uri` itself, else another spelling of it (`%61.md` for `a.md`); undefined when
   * not open.
   */
  openSpelling(uri: string): string | undefined {
    if (this.subjectOf.has(uri)) return uri;
    const key = documentIdentity(uri)?.key;
    return key === undefined ? undefined : this.subjects.get(key)?.latest;
  }

  /** The analysis of the document's current text, from the cache when still valid; undefined for unknown documents. */
  analysisFor(uri: string): DocumentAnalysis | undefined {
    const doc = this.text.get(uri);
    const subject = this.subjectOf.get(uri);
    if (!doc || !subject) return undefined;
    const cached = this.cache.get(uri);
    if (cached && this.isCurrent(cached, doc.version)) return cached;
    const text = doc.getText();
    const shared = this.sharedAnalysis(uri, subject, text);
    if (shared) {
      const entry: CacheEntry = { ...shared, version: doc.version };
      this.cache.set(uri, entry);
      this.trackName(uri, entry.name);
      return entry;
    }
    const started = performance.now();
    const input = this.inputFor(subject.identity, text);
    const analysis = analyze({ ...input, onRuleError: this.onRuleError });
    // A moving average, so one slow run (a GC pause) does not start debouncing.
    const took = performance.now() - started;
    const previous = this.cost.get(uri);
    this.cost.set(uri, previous === undefined ? took : previous * 0.7 + took * 0.3);
    const { path, onDisk } = subject.identity;
    // Only files on disk read the index, so only their names tie them to other files.
    const registered =
      onDisk && analysis.kind && analysis.context ? nameKeyOf(analysis.kind, analysis.context.file, path) : undefined;
    const entry: CacheEntry = {
      version: doc.version,
      generation: this.generation,
      analysis,
      config: input.config,
      onDisk,
      name: registered,
      nameRevision: registered === undefined ? 0 : this.index.names.revisionOf(registered),
    };
    this.cache.set(uri, entry);
    this.trackName(uri, registered);
    return entry;
  }

  /**
   * Publishing waits until `loaded` settles: the configurations read through the client are not
   * there before, and diagnostics under the defaults would flash and change.
   */
  holdUntil(loaded: Promise<unknown>): void {
    const held = (this.held ??= new Set());
    void loaded.finally(() => {
      if (this.held !== held) return;
      this.held = undefined;
      for (const uri of held) this.schedule(uri);
    });
  }

  /** Publishes the document's diagnostics soon, replacing any publication already pending. */
  schedule(uri: string): void {
    if (this.held) {
      this.held.add(uri);
      return;
    }
    const existing = this.timers.get(uri);
    if (existing) existing.cancel();
    // Cheap documents are checked at once, after the messages already received; costly ones
    // wait for a pause in typing. The connection hands over one message per turn of the event
    // loop, so "at once" is two turns: a burst already received ends in one publication.
    if ((this.cost.get(uri) ?? 0) < CHEAP_ANALYSIS_MS) {
      let cancelled = false;
      nextTurn(() => {
        if (!cancelled) nextTurn(() => !cancelled && this.publish(uri));
      });
      this.timers.set(uri, { cancel: () => (cancelled = true) });
    } else {
      const handle = setTimeout(() => this.publish(uri), TYPING_PAUSE_MS);
      this.timers.set(uri, { cancel: () => clearTimeout(handle) });
    }
  }

  /** The index changed for these name keys: check again the open documents that carry them (but those of `except`). */
  scheduleNames(names: Iterable<string>, except?: Subject): void {
    for (const name of names)
      for (const uri of this.byName.get(name) ?? []) if (this.subjectOf.get(uri) !== except) this.schedule(uri);
  }

  /** Configuration or settings changed: re-check every open document. */
  invalidateAll(): void {
    this.generation++;
    for (const doc of this.text.all()) this.schedule(doc.uri);
  }

  /**
   * Forgets a closed document and clears its diagnostics. When it was the last open spelling of
   * a file on disk, the disk's version goes back into the index and its path is returned.
   */
  closed(uri: string): string | undefined {
    this.timers.get(uri)?.cancel();
    this.timers.delete(uri);
    this.cache.delete(uri);
    this.cost.delete(uri);
    this.trackName(uri, undefined);
    this.lastShown.delete(uri);
    if (!this.pulled) this.connection.sendDiagnostics({ uri, diagnostics: [] });
    const subject = this.subjectOf.get(uri);
    if (!subject) return undefined;
    this.subjectOf.delete(uri);
    subject.uris.delete(uri);
    if (subject.uris.size) {
      // Another spelling of the file stays open: its text goes into the index.
      if (subject.latest === uri) {
        subject.latest = subject.uris.values().next().value!;
        this.schedule(subject.latest);
      }
      return undefined;
    }
    const { key, path, onDisk } = subject.identity;
    this.subjects.delete(key);
    if (!onDisk) return undefined;
    this.byPath.delete(path);
    this.scheduleNames(this.index.documentClosed(path));
    return path;
  }

  /** "Fix all": every preferred fix applied until nothing changes, as one edit of the changed span. */
  fixAllEdits(uri: string): TextEdit[] | undefined {
    const doc = this.text.get(uri);
    const subject = this.subjectOf.get(uri);
    if (!doc || !subject) return undefined;
    const text = doc.getText();
    const result = fixAll({ ...this.inputFor(subject.identity, text), onRuleError: this.onRuleError });
    return result.text === text ? [] : [minimalEdit(doc, text, result.text)];
  }

  versionOf(uri: string): number | undefined {
    return this.text.get(uri)?.version;
  }

  /** Whether the file at this path is open in the editor (under any of its spellings). */
  isOpen = (path: string): boolean => this.byPath.has(path);

  /** The paths of the files on disk that are open. */
  openPaths(): Iterable<string> {
    return this.byPath.keys();
  }

  /** A file's text: the editor's when it is open, else the disk's (regular files only). */
  readText = (path: string): string | undefined => this.openText(path) ?? readIfRegular(this.files, path);

  /** The editor's text of an open file (its most recently changed spelling); undefined when it is not open. */
  openText = (path: string): string | undefined => {
    const subject = this.byPath.get(path);
    return subject ? this.text.get(subject.latest)?.getText() : undefined;
  };

  shutdown(): void {
    this.shuttingDown = true;
    for (const t of this.timers.values()) t.cancel();
    this.timers.clear();
  }

  private opened(uri: string): void {
    const identity = documentIdentity(uri);
    if (!identity) return;
    let subject = this.subjects.get(identity.key);
    if (!subject) {
      subject = { identity, uris: new Set(), latest: uri };
      this.subjects.set(identity.key, subject);
      if (identity.onDisk) this.byPath.set(identity.path, subject);
    }
    subject.uris.add(uri);
    subject.latest = uri;
    this.subjectOf.set(uri, subject);
  }

  /** The current analysis of another spelling of the same file whose text is `text` (only one is looked at). */
  private sharedAnalysis(uri: string, subject: Subject, text: string): CacheEntry | undefined {
    let other = subject.latest !== uri ? subject.latest : undefined;
    // The first spelling that is not this one (at most two steps: this one is in the set once).
    if (!other)
      for (const u of subject.uris)
        if (u !== uri) {
          other = u;
          break;
        }
    const entry = other && this.cache.get(other);
    const doc = other && this.text.get(other);
    return entry && doc && this.isCurrent(entry, doc.version) && doc.getText() === text ? entry : undefined;
  }

  private isCurrent(entry: CacheEntry, version: number): boolean {
    return (
      entry.version === version &&
      entry.generation === this.generation &&
      (entry.name === undefined || this.index.names.revisionOf(entry.name) === entry.nameRevision)
    );
  }

  /**
   * What a document is analysed with. A file on disk: its configuration, workspace folder and the
   * workspace index. Anything else: its own text under the defaults and the editor's rules.
   */
  private inputFor(identity: DocumentIdentity, text: string): DocumentInput {
    const { path, onDisk } = identity;
    if (!onDisk) return { text, path, config: this.configuration.detachedConfig() };
    return {
      text,
      path,
      config: this.configuration.configFor(path),
      root: this.configuration.folderOf(path),
      workspace: this.index.names.workspaceIndex(),
    };
  }

  /** Analysis, then the one index update (from the file's most recent spelling), then the diagnostics. */
  private publish(uri: string): void {
    this.timers.delete(uri);
    const doc = this.text.get(uri);
    if (!doc || this.shuttingDown) return;
    const result = this.analysisFor(uri) as CacheEntry | undefined;
    const subject = this.subjectOf.get(uri);
    if (result && subject?.identity.onDisk && subject.latest === uri) {
      const { path } = subject.identity;
      const touched = this.index.updateFromAnalysis(path, uri, result.analysis);
      // Its own entry never shadows itself: its analysis stays valid.
      if (result.name !== undefined) result.nameRevision = this.index.names.revisionOf(result.name);
      // Not the file's other spellings: they never write to the index, so nothing loops.
      this.scheduleNames(touched, subject);
      this.onPublished?.(uri, path, result.analysis);
    }
    // Everything above runs synchronously, so this is the document's current version.
    const diagnostics = this.shown(result);
    if (!this.pulled) {
      this.connection.sendDiagnostics({ uri, version: doc.version, diagnostics });
      return;
    }
    // Pulled: the client asks for them; it is told to ask again when they changed.
    const json = JSON.stringify(diagnostics);
    const changed = this.lastShown.get(uri) !== json;
    this.lastShown.set(uri, json);
    this.onChecked?.(uri, changed);
  }

  /** An open document's diagnostics as shown (pull answers them); undefined when it is not open. */
  diagnosticsOf = (uri: string): { diagnostics: Diagnostic[]; version: number } | undefined => {
    const doc = this.text.get(uri);
    if (!doc) return undefined;
    const diagnostics = this.shown(this.analysisFor(uri));
    this.lastShown.set(uri, JSON.stringify(diagnostics));
    return { diagnostics, version: doc.version };
  };

  /** The findings, the faded removed tools when the setting is on, capped. */
  private shown(result: DocumentAnalysis | undefined): Diagnostic[] {
    const findings = result?.analysis.diagnostics ?? [];
    const shown =
      result && this.configuration.settings.fadeRemovedTools
        ? findings.concat(removedToolDiagnostics(result.analysis))
        : findings;
    return capDiagnostics(shown);
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
