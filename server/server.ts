/**
 * The language server: moves messages between LSP and the engine. Rule logic lives in
 * the engine (shared/), editor-feature logic in shared/features/; this file only keeps
 * documents, configuration and the workspace index current and answers requests.
 *
 * Settings: `subagents.rules` is merged over the `rules:` of the file's `.subagents.yaml`
 * (the editor setting wins for a rule both name), so an author can silence or raise a rule
 * locally without editing the shared configuration. `subagents.polytoken.globalDir` is the
 * ConfigResolver `globalDirSetting` (a `polytoken.globalDir` in `.subagents.yaml` wins over it).
 */
import * as fs from 'fs';
import { posix } from 'path';
import {
  DiagnosticSeverity,
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  FileChangeType,
  TextDocumentSyncKind,
  TextDocuments,
  type ClientCapabilities,
  type Connection,
  type Diagnostic,
  type InitializeResult,
  type WorkspaceSymbol,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import { analyze, DIALECT_MODULES, kindOf, unreadableReason, type Analysis, type WorkspaceIndex } from '../shared/engine';
import { CONFIG_FILE_NAME, type LoadedConfig } from '../shared/config/config';
import { toPosix } from '../shared/files';
import { ConfigResolver } from '../shared/node/config-loader';
import { walkFiles } from '../shared/node/walk';
import { SourceText } from '../shared/text/source';
import type { Dialect, SeveritySetting } from '../shared/types';
import { completions } from '../shared/features/completion';
import { hover } from '../shared/features/hover';
import { codeActions } from '../shared/features/code-actions';
import { documentSymbols, foldingRanges, definitionNames, quickDefinitionNames, type IndexedName } from '../shared/features/symbols';
import { codeLenses } from '../shared/features/code-lens';
import { definition } from '../shared/features/definition';
import { resolveWithProvenance } from '../shared/features/resolve';

export const RESOLVE_REQUEST = 'subagents/resolve';

interface Settings {
  rules: Record<string, SeveritySetting>;
  globalDir?: string;
}

interface IndexEntry {
  path: string;
  uri: string;
  kind: Dialect;
  names: IndexedName[];
}

const SEVERITIES = new Set(['off', 'error', 'warning', 'information', 'hint']);

function readSettings(raw: unknown): Settings {
  const s = (raw ?? {}) as { rules?: unknown; polytoken?: { globalDir?: unknown } };
  const rules: Record<string, SeveritySetting> = {};
  if (s.rules && typeof s.rules === 'object') {
    for (const [id, v] of Object.entries(s.rules as Record<string, unknown>)) if (typeof v === 'string' && SEVERITIES.has(v)) rules[id] = v as SeveritySetting;
  }
  const globalDir = typeof s.polytoken?.globalDir === 'string' && s.polytoken.globalDir.trim() ? s.polytoken.globalDir.trim() : undefined;
  return { rules, globalDir };
}

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

export function uriToPath(uri: string): string | undefined {
  try {
    const u = URI.parse(uri);
    return toPosix(u.scheme === 'file' ? u.fsPath : u.path);
  } catch {
    return undefined;
  }
}

/** Wires every LSP feature to the engine on the given connection. */
export function startServer(connection: Connection): void {
  const documents = new TextDocuments(TextDocument);
  let capabilities: ClientCapabilities = {};
  let folders: string[] = [];
  let settings: Settings = { rules: {} };
  let resolvers = new Map<string, ConfigResolver>();
  let merged = new WeakMap<LoadedConfig, LoadedConfig>();
  /** Bumped whenever configuration, settings or the Polytoken names change: cached analyses are stale. */
  let generation = 0;
  const cache = new Map<string, { version: number; generation: number; analysis: Analysis; config: LoadedConfig }>();
  const timers = new Map<string, { cancel(): void }>();
  const cost = new Map<string, number>();
  const loggedRuleErrors = new Set<string>();
  const index = new Map<string, IndexEntry>();
  let workspaceIndex: WorkspaceIndex | undefined;
  let indexBuild = 0;
  let shuttingDown = false;

  // ---------------------------------------------------------------------------------
  // Configuration

  const folderOf = (path: string): string | undefined => {
    let best: string | undefined;
    for (const f of folders) if ((path === f || path.startsWith(f.endsWith('/') ? f : f + '/')) && (!best || f.length > best.length)) best = f;
    return best;
  };

  const resolverFor = (folder: string | undefined): ConfigResolver => {
    const key = folder ?? '';
    let r = resolvers.get(key);
    if (!r) resolvers.set(key, (r = new ConfigResolver({ stopAt: folder, globalDirSetting: settings.globalDir })));
    return r;
  };

  const configFor = (path: string): LoadedConfig => {
    const loaded = resolverFor(folderOf(path)).forFile(path);
    if (!Object.keys(settings.rules).length) return loaded;
    let m = merged.get(loaded);
    if (!m) {
      m = { ...loaded, config: { ...loaded.config, rules: { ...loaded.config.rules, ...settings.rules } } };
      merged.set(loaded, m);
    }
    return m;
  };

  const resetConfiguration = () => {
    for (const r of resolvers.values()) r.invalidate();
    resolvers = new Map();
    merged = new WeakMap();
    generation++;
  };

  const onRuleError = (rule: string, error: unknown) => {
    if (loggedRuleErrors.has(rule)) return;
    loggedRuleErrors.add(rule);
    const detail = error instanceof Error ? error.stack ?? error.message : String(error);
    connection.console.error(`subagents: rule ${rule} failed and was skipped: ${detail}`);
  };

  // ---------------------------------------------------------------------------------
  // Workspace index (names of every definition; Polytoken names for shadowing)

  const currentWorkspaceIndex = (): WorkspaceIndex => {
    if (!workspaceIndex) {
      const polytoken: { path: string; name: string }[] = [];
      const polytokenByName = new Map<string, { path: string; name: string }[]>();
      for (const e of index.values()) {
        if (e.kind !== 'polytoken' || !e.names[0]) continue;
        const entry = { path: e.path, name: e.names[0].name };
        polytoken.push(entry);
        const same = polytokenByName.get(entry.name);
        if (same) same.push(entry);
        else polytokenByName.set(entry.name, [entry]);
      }
      workspaceIndex = { polytoken, polytokenByName };
    }
    return workspaceIndex;
  };

  /** Sets an index entry; true when the Polytoken names changed (shadowing must be re-checked). */
  const setEntry = (path: string, entry: IndexEntry | undefined): boolean => {
    const old = index.get(path);
    if (entry) index.set(path, entry);
    else index.delete(path);
    const oldName = old?.kind === 'polytoken' ? old.names[0]?.name : undefined;
    const newName = entry?.kind === 'polytoken' ? entry.names[0]?.name : undefined;
    if (oldName === newName) return false;
    workspaceIndexChanged();
    return true;
  };
  const workspaceIndexChanged = () => {
    workspaceIndex = undefined;
  };

  const entryFromText = (path: string, kind: Dialect, text: string): IndexEntry | undefined => {
    if (unreadableReason(text)) return undefined;
    const quick = quickDefinitionNames(kind, text, path);
    if (quick) return { path, uri: URI.file(path).toString(), kind, names: quick };
    const parsed = DIALECT_MODULES[kind].parse(new SourceText(text), path);
    return { path, uri: URI.file(path).toString(), kind, names: definitionNames(kind, parsed, path) };
  };

  const openPaths = () => new Set(documents.all().map((d) => uriToPath(d.uri)).filter((p): p is string => !!p));

  const indexFile = (path: string, open: Set<string>): boolean => {
    if (open.has(path)) return false; // the editor's text wins
    const folder = folderOf(path);
    const config = configFor(path);
    const kind = kindOf({ path, config, root: folder });
    if (!kind || kind === 'config') return setEntry(path, undefined);
    let text: string;
    try {
      text = fs.readFileSync(path, 'utf8');
    } catch {
      return setEntry(path, undefined);
    }
    return setEntry(path, entryFromText(path, kind, text));
  };

  const buildIndex = async () => {
    const build = ++indexBuild;
    const progress = capabilities.window?.workDoneProgress ? await connection.window.createWorkDoneProgress().catch(() => undefined) : undefined;
    progress?.begin('Subagents: indexing definitions', 0, undefined, false);
    try {
      const files: string[] = [];
      for (const folder of folders) files.push(...walkFiles(folder));
      const found = new Map<string, IndexEntry>();
      const extraDirs = new Set<string>();
      for (const folder of folders) {
        const c = configFor(posix.join(folder, '_'));
        if (c.globalDir) extraDirs.add(c.globalDir);
        for (const d of c.config.polytoken.subagentDirs) extraDirs.add(posix.resolve(c.dir, toPosix(d)));
      }
      let done = 0;
      for (const path of files) {
        if (build !== indexBuild || shuttingDown) return;
        const config = configFor(path);
        const kind = kindOf({ path, config, root: folderOf(path) });
        if (kind && kind !== 'config') {
          try {
            const entry = entryFromText(path, kind, fs.readFileSync(path, 'utf8'));
            if (entry) found.set(path, entry);
          } catch {
            // unreadable: nothing to index
          }
          if (kind === 'polytoken') {
            if (config.globalDir) extraDirs.add(config.globalDir);
            for (const d of config.config.polytoken.subagentDirs) extraDirs.add(posix.resolve(config.dir, toPosix(d)));
          }
        }
        if (++done % 25 === 0) {
          progress?.report(Math.round((done / files.length) * 100), `${done}/${files.length} files`);
          await new Promise((r) => setImmediate(r));
        }
      }
      for (const dir of extraDirs) {
        let names: string[];
        try {
          names = fs.readdirSync(dir).filter((n) => n.endsWith('.md'));
        } catch {
          continue;
        }
        for (const n of names) {
          const path = posix.join(dir, n);
          if (found.has(path)) continue;
          try {
            const entry = entryFromText(path, 'polytoken', fs.readFileSync(path, 'utf8'));
            if (entry) found.set(path, entry);
          } catch {
            // skipped like the runtime skips it
          }
        }
      }
      if (build !== indexBuild) return;
      const open = openPaths();
      for (const path of [...index.keys()]) if (!open.has(path)) index.delete(path);
      for (const [path, entry] of found) if (!open.has(path)) index.set(path, entry);
      workspaceIndexChanged();
      generation++;
      revalidateAll();
    } finally {
      progress?.done();
    }
  };

  // ---------------------------------------------------------------------------------
  // Analysis and diagnostics

  const analysisFor = (uri: string): { analysis: Analysis; config: LoadedConfig } | undefined => {
    const doc = documents.get(uri);
    if (!doc) return undefined;
    const cached = cache.get(uri);
    if (cached && cached.version === doc.version && cached.generation === generation) return cached;
    const path = uriToPath(uri);
    if (!path) return undefined;
    const started = performance.now();
    const config = configFor(path);
    const folder = folderOf(path);
    const analysis = analyze({ text: doc.getText(), path, config, root: folder, workspace: currentWorkspaceIndex(), onRuleError });
    // A moving average, so one slow run (a GC pause) does not start debouncing.
    const took = performance.now() - started;
    const previous = cost.get(uri);
    cost.set(uri, previous === undefined ? took : previous * 0.7 + took * 0.3);
    let namesChanged = false;
    if (analysis.context && analysis.kind && analysis.kind !== 'config') {
      const entry: IndexEntry = { path, uri, kind: analysis.kind, names: definitionNames(analysis.kind, analysis.context.file, path) };
      namesChanged = setEntry(path, entry);
    }
    if (namesChanged) {
      generation++;
      // Other open Polytoken definitions may be shadowed (or no longer) by this name.
      for (const other of documents.all()) if (other.uri !== uri && cache.get(other.uri)?.analysis.kind === 'polytoken') schedule(other.uri);
      // This document's own shadowing does not depend on its own index entry: no need to redo it.
    }
    const entry = { version: doc.version, generation, analysis, config };
    cache.set(uri, entry);
    return entry;
  };

  const publish = (uri: string) => {
    timers.delete(uri);
    const doc = documents.get(uri);
    if (!doc || shuttingDown) return;
    const result = analysisFor(uri);
    // Everything above runs synchronously, so this is the document's current version.
    connection.sendDiagnostics({ uri, version: doc.version, diagnostics: capDiagnostics(result?.analysis.diagnostics ?? []) });
  };

  function schedule(uri: string) {
    const existing = timers.get(uri);
    if (existing) existing.cancel();
    // Cheap documents are checked at once (after the messages already received); costly ones
    // wait for a pause in typing.
    if ((cost.get(uri) ?? 0) < 8) {
      const handle = setImmediate(() => publish(uri));
      timers.set(uri, { cancel: () => clearImmediate(handle) });
    } else {
      const handle = setTimeout(() => publish(uri), 20);
      timers.set(uri, { cancel: () => clearTimeout(handle) });
    }
  }

  function revalidateAll() {
    for (const doc of documents.all()) schedule(doc.uri);
  }

  documents.onDidOpen((e) => schedule(e.document.uri));
  documents.onDidChangeContent((e) => schedule(e.document.uri));
  documents.onDidSave((e) => {
    if (posix.basename(uriToPath(e.document.uri) ?? '') === CONFIG_FILE_NAME) configurationFileChanged();
  });
  documents.onDidClose((e) => {
    const uri = e.document.uri;
    timers.get(uri)?.cancel();
    timers.delete(uri);
    cache.delete(uri);
    cost.delete(uri);
    connection.sendDiagnostics({ uri, diagnostics: [] });
    const path = uriToPath(uri);
    if (path && folderOf(path)) {
      // Back to what is on disk.
      if (indexFile(path, new Set())) {
        generation++;
        revalidateAll();
      }
    } else if (path && setEntry(path, undefined)) {
      generation++;
      revalidateAll();
    }
  });

  const configurationFileChanged = () => {
    resetConfiguration();
    revalidateAll();
    void buildIndex();
  };

  // ---------------------------------------------------------------------------------
  // LSP wiring

  const safe =
    <P, R>(empty: R, handler: (params: P) => R) =>
    (params: P): R => {
      try {
        return handler(params);
      } catch (error) {
        connection.console.error(`subagents: request failed: ${error instanceof Error ? error.stack : String(error)}`);
        return empty;
      }
    };

  connection.onInitialize((params): InitializeResult => {
    capabilities = params.capabilities;
    const wsFolders = params.workspaceFolders ?? (params.rootUri ? [{ uri: params.rootUri, name: 'root' }] : []);
    folders = wsFolders.map((f) => uriToPath(f.uri)).filter((p): p is string => !!p).map((p) => p.replace(/\/+$/, '') || '/');
    settings = readSettings((params.initializationOptions as { settings?: unknown } | undefined)?.settings);
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
        completionProvider: { triggerCharacters: ['[', ',', ' ', '-', '"', '@', '!', '_'], resolveProvider: false },
        hoverProvider: true,
        codeActionProvider: { codeActionKinds: ['quickfix'] },
        documentSymbolProvider: true,
        workspaceSymbolProvider: true,
        foldingRangeProvider: true,
        definitionProvider: true,
        codeLensProvider: { resolveProvider: false },
        workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
      },
      serverInfo: { name: 'subagents-language-server', version: '0.1.0' },
    };
  });

  const pullSettings = async () => {
    if (!capabilities.workspace?.configuration) return;
    try {
      const raw = await connection.workspace.getConfiguration('subagents');
      settings = readSettings(raw);
    } catch {
      // keep the previous settings
    }
  };

  connection.onInitialized(async () => {
    if (capabilities.workspace?.didChangeConfiguration?.dynamicRegistration) {
      void connection.client.register(DidChangeConfigurationNotification.type, { section: 'subagents' }).catch(() => undefined);
    }
    if (capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration) {
      void connection.client
        .register(DidChangeWatchedFilesNotification.type, {
          watchers: ['**/*.md', '**/*.yaml', '**/*.yml', '**/*.json'].map((globPattern) => ({ globPattern })),
        })
        .catch(() => undefined);
    }
    if (capabilities.workspace?.workspaceFolders) {
      connection.workspace.onDidChangeWorkspaceFolders((e) => {
        const removed = new Set(e.removed.map((f) => uriToPath(f.uri)));
        folders = folders.filter((f) => !removed.has(f));
        for (const f of e.added) {
          const p = uriToPath(f.uri);
          if (p) folders.push(p.replace(/\/+$/, '') || '/');
        }
        resetConfiguration();
        revalidateAll();
        void buildIndex();
      });
    }
    const before = JSON.stringify(settings);
    await pullSettings();
    if (JSON.stringify(settings) !== before) {
      resetConfiguration();
      revalidateAll();
    }
    warmUp();
    await buildIndex();
  });

  /** Runs each dialect once on a small sample so the first real keystroke does not pay for JIT and schema compilation. */
  function warmUp() {
    const dir = folders[0] ?? '/';
    const samples: [Dialect, string, string][] = [
      ['polytoken', 'warm.md', '---\nname: warm\ndescription: d\npolytoken:\n  tools: [grep, tag!ALL]\n  tools_deny: [glob]\n  exit_tool_schema:\n    type: object\n    properties:\n      status: { type: string, enum: [ok, x] }\n---\nbody {{ x }}\n'],
      ['picasso', 'warm.yaml', 'name: warm\ninvocation: "@warm"\nmodel: m\ntools: [grep]\nmax_steps: 1\nmax_depth: 0\nmemory: none\n'],
      ['profy', 'warm.expert.json', '{"name":"w","description":"d","tools":["read"],"subagents":[{"name":"s","description":"d","system_prompt":"p","tools":["re*"]}]}'],
    ];
    for (const [kind, name, text] of samples) {
      try {
        const path = posix.join(dir, name);
        const analysis = analyze({ text, path, kind, config: configFor(path), root: folders[0] });
        completions(analysis, { line: 3, character: 10 });
        resolveWithProvenance(analysis, 'warm:');
      } catch {
        // warming up is best effort
      }
    }
  }

  connection.onDidChangeConfiguration(async (change) => {
    const pushed = (change.settings as { subagents?: unknown } | undefined)?.subagents;
    if (pushed !== undefined && !capabilities.workspace?.configuration) settings = readSettings(pushed);
    else await pullSettings();
    resetConfiguration();
    revalidateAll();
    void buildIndex();
  });

  connection.onDidChangeWatchedFiles((params) => {
    let configChanged = false;
    let namesChanged = false;
    const open = openPaths();
    for (const change of params.changes) {
      const path = uriToPath(change.uri);
      if (!path) continue;
      if (posix.basename(path) === CONFIG_FILE_NAME) {
        configChanged = true;
        continue;
      }
      if (change.type === FileChangeType.Deleted) {
        if (!open.has(path) && index.has(path)) namesChanged = setEntry(path, undefined) || namesChanged;
      } else if (folderOf(path)) {
        namesChanged = indexFile(path, open) || namesChanged;
      }
    }
    if (configChanged) configurationFileChanged();
    else if (namesChanged) {
      generation++;
      revalidateAll();
    }
  });

  connection.onCompletion(
    safe(null, (params) => {
      const a = analysisFor(params.textDocument.uri);
      if (!a) return null;
      const snippets = capabilities.textDocument?.completion?.completionItem?.snippetSupport === true;
      return { isIncomplete: false, items: completions(a.analysis, params.position, { snippets }) };
    }),
  );

  connection.onHover(safe(null, (params) => {
    const a = analysisFor(params.textDocument.uri);
    return a ? hover(a.analysis, params.position) ?? null : null;
  }));

  connection.onCodeAction(
    safe([], (params) => {
      const a = analysisFor(params.textDocument.uri);
      if (!a) return [];
      const resourceOps = capabilities.workspace?.workspaceEdit?.resourceOperations ?? [];
      return codeActions(a.analysis, params.textDocument.uri, params.range, params.context.diagnostics, {
        renameFiles: resourceOps.includes('rename'),
        documentChanges: !!capabilities.workspace?.workspaceEdit?.documentChanges,
        version: documents.get(params.textDocument.uri)?.version,
      });
    }),
  );

  connection.onDocumentSymbol(safe([], (params) => {
    const a = analysisFor(params.textDocument.uri);
    return a ? documentSymbols(a.analysis) : [];
  }));

  connection.onFoldingRanges(safe([], (params) => {
    const a = analysisFor(params.textDocument.uri);
    return a ? foldingRanges(a.analysis) : [];
  }));

  connection.onWorkspaceSymbol(
    safe([] as WorkspaceSymbol[], (params) => {
      const query = params.query.toLowerCase();
      const out: WorkspaceSymbol[] = [];
      for (const e of index.values()) {
        for (const n of e.names) {
          if (query && !n.name.toLowerCase().includes(query)) continue;
          out.push({ name: n.name, kind: n.symbolKind, containerName: n.container ?? e.kind, location: { uri: e.uri, range: n.range } });
        }
      }
      // Exact and prefix matches first; a workspace of thousands answers with the best 1,000.
      const rank = (n: string) => (n.toLowerCase() === query ? 0 : n.toLowerCase().startsWith(query) ? 1 : 2);
      out.sort((a, b) => rank(a.name) - rank(b.name) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      return out.slice(0, 1000);
    }),
  );

  const readText = (path: string): string | undefined => {
    const uri = URI.file(path).toString();
    const open = documents.all().find((d) => d.uri === uri || uriToPath(d.uri) === path);
    if (open) return open.getText();
    try {
      return fs.readFileSync(path, 'utf8');
    } catch {
      return undefined;
    }
  };

  connection.onDefinition(safe(null, (params) => {
    const a = analysisFor(params.textDocument.uri);
    if (!a) return null;
    return definition(a.analysis, params.position, { configPath: a.config.path, readText, pathToUri: (p) => URI.file(p).toString() }) ?? null;
  }));

  connection.onCodeLens(safe([], (params) => {
    const a = analysisFor(params.textDocument.uri);
    return a ? codeLenses(a.analysis, params.textDocument.uri) : [];
  }));

  connection.onRequest(RESOLVE_REQUEST, safe(null, (params: { uri?: string } | undefined) => {
    const uri = params?.uri;
    if (typeof uri !== 'string') return null;
    const a = analysisFor(uri);
    return a ? resolveWithProvenance(a.analysis, uri) ?? null : null;
  }));

  connection.onShutdown(() => {
    shuttingDown = true;
    for (const t of timers.values()) t.cancel();
    timers.clear();
  });

  documents.listen(connection);
  connection.listen();
}
