/**
 * The Subagents view (Explorer): every definition of the workspace by runtime, then by group
 * (Polytoken project or folder, Picasso folder, Profy Expert), with the runtime's verdict.
 * The first three levels come from one `subagents/workspace` answer; a definition's tools are
 * resolved (`subagents/resolve`) only when it is expanded. The server's
 * `subagents/workspaceChanged` updates the view: only the files it names are asked for again,
 * and only their nodes (and the counts above them) are refreshed.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import {
  RESOLVE_REQUEST,
  WORKSPACE_CHANGED_NOTIFICATION,
  WORKSPACE_REQUEST,
  type DefinitionStatus,
  type ResolveParams,
  type ResolveResult,
  type WorkspaceChangedParams,
  type WorkspaceDefinition,
  type WorkspaceParams,
  type WorkspaceResult,
} from '../shared/protocol';
import type { ResolvedDefinition } from '../shared/results';
import { definitionDescription, hasProblems, RUNTIMES, statusLine, toolRows, type Runtime, type ToolRow } from './definitions-model';

export const DEFINITIONS_VIEW_ID = 'subagents.definitions';
/** Context keys the view's menus and welcome content read. */
const ONLY_PROBLEMS_KEY = 'subagents.definitions.onlyProblems';
const LOADING_KEY = 'subagents.definitions.loading';

export type DefinitionsNode = RuntimeNode | GroupNode | DefinitionNode | DetailNode;

interface RuntimeNode {
  kind: 'runtime';
  id: string;
  runtime: Runtime;
}
interface GroupNode {
  kind: 'group';
  id: string;
  runtime: Runtime;
  group: string;
  parent: RuntimeNode;
}
export interface DefinitionNode {
  kind: 'definition';
  id: string;
  /** The file (the Resolve Subagent command reads `uri` from its argument). */
  uri: string;
  definition: WorkspaceDefinition;
  parent: GroupNode;
}
interface DetailNode {
  kind: 'detail';
  id: string;
  row: ToolRow;
  parent: DefinitionNode;
}

const STATUS_ICON: Record<DefinitionStatus, vscode.ThemeIcon> = {
  loads: new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed')),
  rejected: new vscode.ThemeIcon('error', new vscode.ThemeColor('problemsErrorIcon.foreground')),
  dropped: new vscode.ThemeIcon('circle-slash', new vscode.ThemeColor('problemsWarningIcon.foreground')),
  shadowed: new vscode.ThemeIcon('eye-closed', new vscode.ThemeColor('disabledForeground')),
};
const ROW_ICON: Record<ToolRow['kind'], vscode.ThemeIcon> = {
  granted: new vscode.ThemeIcon('tools', new vscode.ThemeColor('testing.iconPassed')),
  removed: new vscode.ThemeIcon('circle-slash', new vscode.ThemeColor('problemsErrorIcon.foreground')),
  dropped: new vscode.ThemeIcon('trash', new vscode.ThemeColor('problemsWarningIcon.foreground')),
  unexpanded: new vscode.ThemeIcon('question'),
  note: new vscode.ThemeIcon('info'),
};

const byName = (a: DefinitionNode, b: DefinitionNode) => a.definition.name.localeCompare(b.definition.name) || a.uri.localeCompare(b.uri) || a.definition.index - b.definition.index;

export class DefinitionsView implements vscode.TreeDataProvider<DefinitionsNode>, vscode.Disposable {
  readonly treeView: vscode.TreeView<DefinitionsNode>;
  private readonly changed = new vscode.EventEmitter<DefinitionsNode | DefinitionsNode[] | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [];

  /** The server's answer, by file. */
  private readonly files = new Map<string, WorkspaceDefinition[]>();
  private complete = false;
  private loaded = false;
  /** Stable node objects (VS Code finds elements by identity), by id. */
  private readonly runtimes = new Map<Runtime, RuntimeNode>();
  private readonly groups = new Map<string, GroupNode>();
  private readonly definitions = new Map<string, DefinitionNode>();
  /** Each group's definitions, and the same sorted (made when asked, dropped when the group changes). */
  private readonly members = new Map<string, Set<DefinitionNode>>();
  private readonly sorted = new Map<string, DefinitionNode[]>();
  /** A file's resolution, fetched when one of its definitions is expanded; dropped when the file changes. */
  private readonly resolutions = new Map<string, Promise<ResolveResult>>();
  private onlyProblems: boolean;
  /** Files the server said changed, not fetched yet ('all': fetch everything). */
  private pending: Set<string> | 'all' = 'all';
  private fetching: Promise<void> | undefined;
  private completeWaiters: (() => void)[] = [];

  constructor(
    private readonly client: LanguageClient,
    private readonly state: vscode.Memento,
  ) {
    this.onlyProblems = state.get<boolean>(ONLY_PROBLEMS_KEY, false);
    this.treeView = vscode.window.createTreeView(DEFINITIONS_VIEW_ID, { treeDataProvider: this, showCollapseAll: true });
    void vscode.commands.executeCommand('setContext', ONLY_PROBLEMS_KEY, this.onlyProblems);
    void vscode.commands.executeCommand('setContext', LOADING_KEY, true);
    this.disposables.push(
      this.treeView,
      this.changed,
      client.onNotification(WORKSPACE_CHANGED_NOTIFICATION, (params: WorkspaceChangedParams) => this.serverChanged(params)),
      this.treeView.onDidChangeVisibility((e) => {
        if (e.visible && this.pending !== 'all' && this.pending.size) void this.fetch();
      }),
      vscode.commands.registerCommand('subagents.definitions.onlyProblems', () => this.setOnlyProblems(true)),
      vscode.commands.registerCommand('subagents.definitions.showAll', () => this.setOnlyProblems(false)),
    );
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }

  /** The language server (re)started: everything is asked for again. */
  serverStarted(): void {
    if (!this.loaded) return; // the first start: the view asks when it is first shown
    this.resolutions.clear();
    this.pending = 'all';
    void this.fetch();
  }

  /** Resolves once the view holds a complete answer (tests, and anything that needs the whole list). */
  whenComplete(): Promise<void> {
    if (this.complete && !this.fetching) return Promise.resolve();
    if (!this.loaded) void this.fetch();
    return new Promise((resolve) => this.completeWaiters.push(resolve));
  }

  async setOnlyProblems(on: boolean): Promise<void> {
    this.onlyProblems = on;
    await this.state.update(ONLY_PROBLEMS_KEY, on);
    await vscode.commands.executeCommand('setContext', ONLY_PROBLEMS_KEY, on);
    this.updateMessage();
    this.changed.fire(undefined);
  }

  // ----- TreeDataProvider

  getTreeItem(node: DefinitionsNode): vscode.TreeItem {
    switch (node.kind) {
      case 'runtime': {
        const defs = this.visibleIn(node);
        const item = new vscode.TreeItem(RUNTIMES[node.runtime].label, vscode.TreeItemCollapsibleState.Expanded);
        item.id = node.id;
        item.description = countLine(defs);
        item.iconPath = new vscode.ThemeIcon(RUNTIMES[node.runtime].icon);
        item.tooltip = RUNTIMES[node.runtime].tooltip;
        return item;
      }
      case 'group': {
        const defs = this.visibleMembers(node);
        const item = new vscode.TreeItem(node.group, vscode.TreeItemCollapsibleState.Collapsed);
        item.id = node.id;
        item.description = countLine(defs);
        item.iconPath = new vscode.ThemeIcon(node.runtime === 'profy' ? 'account' : 'folder');
        return item;
      }
      case 'definition': {
        const d = node.definition;
        const item = new vscode.TreeItem(d.name || '(unnamed)', vscode.TreeItemCollapsibleState.Collapsed);
        item.id = node.id;
        item.description = definitionDescription(d);
        item.iconPath = STATUS_ICON[d.status];
        item.tooltip = this.tooltip(d);
        item.resourceUri = vscode.Uri.parse(d.uri);
        item.contextValue = `subagents.definition.${d.status}`;
        const range = new vscode.Range(d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character);
        item.command = { title: 'Open Definition', command: 'vscode.open', arguments: [vscode.Uri.parse(d.uri), { selection: range, preview: true } satisfies vscode.TextDocumentShowOptions] };
        return item;
      }
      case 'detail': {
        const item = new vscode.TreeItem(node.row.label, vscode.TreeItemCollapsibleState.None);
        item.id = node.id;
        item.description = node.row.description;
        item.tooltip = node.row.tooltip;
        item.iconPath = ROW_ICON[node.row.kind];
        item.contextValue = `subagents.tool.${node.row.kind}`;
        return item;
      }
    }
  }

  async getChildren(node?: DefinitionsNode): Promise<DefinitionsNode[]> {
    if (!node) {
      if (!this.loaded) await this.fetch();
      return RUNTIMES_ORDER.map((r) => this.runtimes.get(r)).filter((n): n is RuntimeNode => !!n && this.visibleIn(n).length > 0);
    }
    switch (node.kind) {
      case 'runtime':
        return [...this.groups.values()].filter((g) => g.parent === node && this.visibleMembers(g).length > 0).sort((a, b) => a.group.localeCompare(b.group));
      case 'group':
        return this.visibleMembers(node);
      case 'definition':
        return this.details(node);
      case 'detail':
        return [];
    }
  }

  getParent(node: DefinitionsNode): DefinitionsNode | undefined {
    return node.kind === 'runtime' ? undefined : node.parent;
  }

  /** The node of a file's definition (tests and reveal). */
  nodeFor(uri: string, name: string): DefinitionNode | undefined {
    return [...this.definitions.values()].find((n) => n.uri === uri && n.definition.name === name);
  }

  // ----- data

  private serverChanged(params: WorkspaceChangedParams): void {
    const uris = Array.isArray(params?.uris) ? params.uris : [];
    if (!uris.length) this.pending = 'all';
    else if (this.pending !== 'all') for (const uri of uris) this.pending.add(uri);
    for (const uri of uris.length ? uris : [...this.resolutions.keys()]) this.resolutions.delete(uri);
    // A hidden view catches up when it is shown.
    if (this.treeView.visible || this.completeWaiters.length) void this.fetch();
  }

  /** Asks for what changed (everything on the first call), one request at a time. */
  private fetch(): Promise<void> {
    if (this.fetching) return this.fetching;
    this.fetching = (async () => {
      try {
        while (this.pending === 'all' || this.pending.size) {
          const wanted = this.pending;
          this.pending = new Set();
          const params: WorkspaceParams = wanted === 'all' ? {} : { uris: [...wanted] };
          let result: WorkspaceResult;
          try {
            result = await this.client.sendRequest<WorkspaceResult>(WORKSPACE_REQUEST, params);
          } catch (e) {
            this.treeView.message = `The language server did not answer: ${e instanceof Error ? e.message : String(e)}`;
            return;
          }
          this.apply(wanted, result);
        }
      } finally {
        this.fetching = undefined;
      }
      if (this.complete) for (const w of this.completeWaiters.splice(0)) w();
    })();
    return this.fetching;
  }

  /** Takes in an answer and refreshes what it changed: a file's own nodes and the counts above them, or everything. */
  private apply(wanted: Set<string> | 'all', result: WorkspaceResult): void {
    const firstLoad = !this.loaded;
    this.loaded = true;
    this.complete = result.complete;
    void vscode.commands.executeCommand('setContext', LOADING_KEY, !result.complete && !result.definitions.length);
    const byUri = new Map<string, WorkspaceDefinition[]>();
    for (const d of result.definitions) {
      const list = byUri.get(d.uri);
      if (list) list.push(d);
      else byUri.set(d.uri, [d]);
    }
    const uris = wanted === 'all' ? new Set([...this.files.keys(), ...byUri.keys()]) : wanted;
    const refresh = new Set<DefinitionsNode>();
    let structure = false;
    for (const uri of uris) {
      const outcome = this.replaceFile(uri, byUri.get(uri) ?? []);
      for (const n of outcome.refresh) refresh.add(n);
      structure ||= outcome.structure;
    }
    this.updateMessage();
    if (firstLoad || wanted === 'all' || structure) this.changed.fire(undefined);
    else if (refresh.size) this.changed.fire([...refresh]);
  }

  /** Replaces one file's definitions; says which nodes show something new, and whether a runtime or group came or went. */
  private replaceFile(uri: string, next: WorkspaceDefinition[]): { refresh: DefinitionsNode[]; structure: boolean } {
    const refresh: DefinitionsNode[] = [];
    let structure = false;
    const before = this.files.get(uri) ?? [];
    if (next.length) this.files.set(uri, next);
    else this.files.delete(uri);
    /** Groups whose members or counts changed. */
    const touched = new Set<GroupNode>();
    const keep = new Set<string>();
    for (const d of next) {
      const id = `${d.uri}#${d.index}`;
      keep.add(id);
      const { node: group, created } = this.groupNode(d);
      structure ||= created;
      const existing = this.definitions.get(id);
      if (existing && existing.parent === group) {
        const old = existing.definition;
        if (JSON.stringify(old) === JSON.stringify(d)) continue;
        existing.definition = d;
        refresh.push(existing);
        // The counts above it, its place in the sorted list, or its visibility under the filter.
        if (old.status !== d.status || old.name !== d.name || hasProblems(old) !== hasProblems(d)) touched.add(group);
        continue;
      }
      if (existing) this.removeNode(existing, touched);
      const node: DefinitionNode = { kind: 'definition', id, uri: d.uri, definition: d, parent: group };
      this.definitions.set(id, node);
      this.members.get(group.id)!.add(node);
      touched.add(group);
    }
    for (const d of before) {
      const node = this.definitions.get(`${d.uri}#${d.index}`);
      if (node && !keep.has(node.id)) this.removeNode(node, touched);
    }
    for (const group of touched) {
      this.sorted.delete(group.id);
      if (!this.members.get(group.id)?.size) {
        this.members.delete(group.id);
        this.groups.delete(group.id);
        structure = true;
      }
      refresh.push(group, group.parent);
    }
    return { refresh, structure };
  }

  private removeNode(node: DefinitionNode, touched: Set<GroupNode>): void {
    this.definitions.delete(node.id);
    this.members.get(node.parent.id)?.delete(node);
    touched.add(node.parent);
  }

  private groupNode(d: WorkspaceDefinition): { node: GroupNode; created: boolean } {
    const runtime = d.dialect;
    let created = false;
    let parent = this.runtimes.get(runtime);
    if (!parent) {
      parent = { kind: 'runtime', id: `runtime:${runtime}`, runtime };
      this.runtimes.set(runtime, parent);
      created = true;
    }
    const id = `group:${runtime}:${d.group}`;
    let node = this.groups.get(id);
    if (!node) {
      node = { kind: 'group', id, runtime, group: d.group, parent };
      this.groups.set(id, node);
      this.members.set(id, new Set());
      created = true;
    }
    return { node, created };
  }

  private visibleMembers(group: GroupNode): DefinitionNode[] {
    let all = this.sorted.get(group.id);
    if (!all) this.sorted.set(group.id, (all = [...(this.members.get(group.id) ?? [])].sort(byName)));
    return this.onlyProblems ? all.filter((n) => hasProblems(n.definition)) : all;
  }

  private visibleIn(runtime: RuntimeNode): DefinitionNode[] {
    const out: DefinitionNode[] = [];
    for (const g of this.groups.values()) if (g.parent === runtime) for (const n of this.visibleMembers(g)) out.push(n);
    return out;
  }

  private updateMessage(): void {
    const all = this.definitions.size;
    const parts: string[] = [];
    if (!this.complete) parts.push(`Indexing the workspace… ${all} definition${all === 1 ? '' : 's'} so far.`);
    if (this.onlyProblems && all) {
      const shown = [...this.definitions.values()].filter((n) => hasProblems(n.definition)).length;
      parts.push(`Only problems: ${shown} of ${all} definitions.`);
    }
    this.treeView.message = parts.length ? parts.join(' ') : undefined;
  }

  private tooltip(d: WorkspaceDefinition): vscode.MarkdownString {
    const md = new vscode.MarkdownString(undefined, true);
    md.appendMarkdown(`**${escape(d.name || '(unnamed)')}** (${RUNTIMES[d.dialect].label})\n\n`);
    md.appendMarkdown(`${statusLine(d)}\n\n`);
    if (d.reasons?.length) md.appendMarkdown(`Because of: ${d.reasons.map((r) => `\`${r}\``).join(', ')}\n\n`);
    if (d.silenced?.length) md.appendMarkdown(`Hidden by your settings, applied by the runtime all the same: ${d.silenced.map((r) => `\`${r}\``).join(', ')}\n\n`);
    md.appendMarkdown(`${escape(vscode.workspace.asRelativePath(vscode.Uri.parse(d.uri)))}`);
    return md;
  }

  /** The definition's tools, from one `subagents/resolve` of its file (shared by the file's definitions). */
  private async details(node: DefinitionNode): Promise<DetailNode[]> {
    let resolution = this.resolutions.get(node.uri);
    if (!resolution) {
      const params: ResolveParams = { uri: node.uri };
      resolution = Promise.resolve(this.client.sendRequest<ResolveResult>(RESOLVE_REQUEST, params));
      this.resolutions.set(node.uri, resolution);
    }
    let resolved: ResolvedDefinition | undefined;
    try {
      const r = await resolution;
      const defs = r?.definitions ?? [];
      const at = defs[node.definition.index];
      resolved = at && at.name === node.definition.name ? at : defs.find((d) => d.name === node.definition.name);
    } catch (e) {
      this.resolutions.delete(node.uri);
      return [this.detail(node, 0, { kind: 'note', label: 'Could not resolve', description: e instanceof Error ? e.message : String(e) })];
    }
    if (!resolved) return [this.detail(node, 0, { kind: 'note', label: 'Not found in the file any more' })];
    return toolRows(resolved).map((row, i) => this.detail(node, i, row));
  }

  private detail(parent: DefinitionNode, i: number, row: ToolRow): DetailNode {
    return { kind: 'detail', id: `${parent.id}/${i}:${row.kind}:${row.label}`, row, parent };
  }
}

const RUNTIMES_ORDER: Runtime[] = ['polytoken', 'picasso', 'profy'];

function countLine(defs: DefinitionNode[]): string {
  const failing = defs.filter((n) => n.definition.status === 'rejected' || n.definition.status === 'dropped').length;
  return `${defs.length}${failing ? ` · ${failing} not loading` : ''}`;
}

const escape = (text: string): string => text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
