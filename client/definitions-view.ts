/**
 * The Subagents view (Explorer): every definition of the workspace by runtime, then by group
 * (a project, a folder, or an Expert: the server says which), with the runtime's verdict. The
 * runtimes, their names and icons come from the server's answer.
 * The first three levels come from one `subagents/workspace` answer; a definition's tools are
 * resolved (`subagents/resolve`) only when it is expanded. The server's
 * `subagents/workspaceChanged` updates the view: only the files it names are asked for again,
 * and only their nodes (and the counts above them) are refreshed.
 */
import * as vscode from 'vscode';
import type { BaseLanguageClient as LanguageClient } from 'vscode-languageclient';
import {
  RESOLVE_REQUEST,
  WORKSPACE_CHANGED_NOTIFICATION,
  WORKSPACE_REQUEST,
  type DefinitionStatus,
  type ResolveParams,
  type ResolveResult,
  type WorkspaceChangedParams,
  type WorkspaceParams,
  type WorkspaceResult,
} from '../shared/protocol';
import type { ResolvedDefinition } from '../shared/protocol';
import {
  definitionDescription,
  hasProblems,
  problemsLine,
  runtimeInfo,
  statusLine,
  toolRows,
  type Runtime,
  type ToolRow,
} from './definitions-model';
import {
  DefinitionsStore,
  refreshTarget,
  type DefinitionNode,
  type DefinitionsNode,
  type DetailNode,
  type GroupNode,
  type RuntimeNode,
} from './definitions-store';

export type { DefinitionsNode } from './definitions-store';

const DEFINITIONS_VIEW_ID = 'subagents.definitions';
/** How long the tree's requests must have been quiet before the next refresh. */
const TREE_QUIET_MS = 300;
/** Context keys the view's menus and welcome content read. */
const ONLY_PROBLEMS_KEY = 'subagents.definitions.onlyProblems';
const LOADING_KEY = 'subagents.definitions.loading';

const STATUS_ICON: Record<DefinitionStatus, vscode.ThemeIcon> = {
  loads: new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed')),
  rejected: new vscode.ThemeIcon('error', new vscode.ThemeColor('problemsErrorIcon.foreground')),
  dropped: new vscode.ThemeIcon('circle-slash', new vscode.ThemeColor('problemsWarningIcon.foreground')),
  shadowed: new vscode.ThemeIcon('eye-closed', new vscode.ThemeColor('disabledForeground')),
};
const ROW_ICON: Record<ToolRow['kind'], vscode.ThemeIcon> = {
  granted: new vscode.ThemeIcon('tools', new vscode.ThemeColor('testing.iconPassed')),
  unknown: new vscode.ThemeIcon('question', new vscode.ThemeColor('problemsWarningIcon.foreground')),
  removed: new vscode.ThemeIcon('circle-slash', new vscode.ThemeColor('problemsErrorIcon.foreground')),
  dropped: new vscode.ThemeIcon('trash', new vscode.ThemeColor('problemsWarningIcon.foreground')),
  unexpanded: new vscode.ThemeIcon('question'),
  note: new vscode.ThemeIcon('info'),
};

export class DefinitionsView implements vscode.TreeDataProvider<DefinitionsNode>, vscode.Disposable {
  readonly treeView: vscode.TreeView<DefinitionsNode>;
  private readonly changed = new vscode.EventEmitter<DefinitionsNode | DefinitionsNode[] | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [];

  private readonly store = new DefinitionsStore();
  private complete = false;
  private loaded = false;
  /** A file's resolution, fetched when one of its definitions is expanded; dropped when the file changes. */
  private readonly resolutions = new Map<string, Promise<ResolveResult>>();
  private onlyProblems: boolean;
  /** Files the server said changed, not fetched yet ('all': fetch everything). */
  private pending: Set<string> | 'all' = 'all';
  private fetching: Promise<void> | undefined;
  private completeWaiters: (() => void)[] = [];
  /** The runtimes the tree last got for its root, and whether it is waiting for them (the first answer). */
  private shownRoots: readonly DefinitionsNode[] | undefined;
  private answeringRoot = false;
  /** A refresh waiting for the tree to be quiet (and shown), and when the tree last asked for children. */
  private waitingRefresh: 'root' | Set<DefinitionsNode> | undefined;
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  private treeAskedAt = 0;

  constructor(
    private readonly client: LanguageClient,
    private readonly state: vscode.Memento,
  ) {
    this.onlyProblems = state.get<boolean>(ONLY_PROBLEMS_KEY, false);
    this.treeView = vscode.window.createTreeView(DEFINITIONS_VIEW_ID, {
      treeDataProvider: this,
      showCollapseAll: true,
    });
    void vscode.commands.executeCommand('setContext', ONLY_PROBLEMS_KEY, this.onlyProblems);
    void vscode.commands.executeCommand('setContext', LOADING_KEY, true);
    this.disposables.push(
      this.treeView,
      this.changed,
      client.onNotification(WORKSPACE_CHANGED_NOTIFICATION, (params: WorkspaceChangedParams) =>
        this.serverChanged(params),
      ),
      this.treeView.onDidChangeVisibility((e) => {
        if (e.visible) this.scheduleRefresh();
        if (e.visible && this.pending !== 'all' && this.pending.size) void this.fetch();
      }),
      vscode.commands.registerCommand('subagents.definitions.onlyProblems', () => this.setOnlyProblems(true)),
      vscode.commands.registerCommand('subagents.definitions.showAll', () => this.setOnlyProblems(false)),
    );
  }

  dispose(): void {
    clearTimeout(this.refreshTimer);
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

  /** Resolves once no refresh is waiting (tests: what fires afterwards comes from what they do next). */
  async refreshSettled(): Promise<void> {
    while (this.waitingRefresh || this.refreshTimer) await new Promise((r) => setTimeout(r, 50));
  }

  async setOnlyProblems(on: boolean): Promise<void> {
    this.onlyProblems = on;
    await this.state.update(ONLY_PROBLEMS_KEY, on);
    await vscode.commands.executeCommand('setContext', ONLY_PROBLEMS_KEY, on);
    this.updateMessage();
    this.refresh('root');
  }

  // ----- TreeDataProvider

  getTreeItem(node: DefinitionsNode): vscode.TreeItem {
    switch (node.kind) {
      case 'runtime': {
        const defs = this.visibleIn(node);
        const runtime = this.runtime(node.runtime);
        const item = new vscode.TreeItem(runtime.title, vscode.TreeItemCollapsibleState.Expanded);
        item.id = node.id;
        item.description = countLine(defs);
        item.iconPath = new vscode.ThemeIcon(runtime.icon);
        item.tooltip = runtime.tooltip;
        return item;
      }
      case 'group': {
        const defs = this.visibleMembers(node);
        const item = new vscode.TreeItem(node.group, vscode.TreeItemCollapsibleState.Collapsed);
        item.id = node.id;
        item.description = countLine(defs);
        item.iconPath = new vscode.ThemeIcon(
          this.runtime(node.runtime).groupKind === 'definition' ? 'account' : 'folder',
        );
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
        const range = new vscode.Range(
          d.range.start.line,
          d.range.start.character,
          d.range.end.line,
          d.range.end.character,
        );
        item.command = {
          title: 'Open Definition',
          command: 'vscode.open',
          arguments: [
            vscode.Uri.parse(d.uri),
            { selection: range, preview: true } satisfies vscode.TextDocumentShowOptions,
          ],
        };
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
    this.treeAskedAt = Date.now();
    if (!node) {
      if (!this.loaded) {
        this.answeringRoot = true;
        try {
          await this.fetch();
        } finally {
          this.answeringRoot = false;
        }
      }
      return (this.shownRoots = this.rootNodes());
    }
    switch (node.kind) {
      case 'runtime':
        return this.store.groupsOf(node).filter((g) => this.visibleMembers(g).length > 0);
      case 'group':
        return this.visibleMembers(node);
      case 'definition':
        return this.details(node);
      case 'detail':
        return [];
    }
  }

  private rootNodes(): RuntimeNode[] {
    return this.store.runtimeNodes().filter((n) => this.visibleIn(n).length > 0);
  }

  getParent(node: DefinitionsNode): DefinitionsNode | undefined {
    return node.kind === 'runtime' ? undefined : node.parent;
  }

  /** The node of a file's definition (tests and reveal). */
  nodeFor(uri: string, name: string): DefinitionNode | undefined {
    return this.store.nodeFor(uri, name);
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
    this.loaded = true;
    this.complete = result.complete;
    void vscode.commands.executeCommand('setContext', LOADING_KEY, !result.complete && !result.definitions.length);
    if (result.runtimes) this.store.setRuntimes(result.runtimes);
    const { refresh } = this.store.apply(wanted, result.definitions);
    this.updateMessage();
    const target = refreshTarget(this.shownRoots, this.rootNodes(), refresh);
    // The tree's pending request for the root gets this answer: a refresh now would only cancel it.
    if (target !== 'root' || !this.answeringRoot) this.refresh(target);
  }

  /**
   * Asks VS Code to refresh, one refresh at a time: a refresh makes the extension host forget the
   * nodes below what it refreshes, and a second one while the workbench is still asking for the
   * children of the first one's expanded nodes is what logged "No tree item with id '1/runtime:…'
   * found". So refreshes wait until the tree's requests have been quiet for a moment (merged
   * meanwhile), and a hidden view gets none: it is refreshed from the root once shown.
   */
  private refresh(target: 'root' | readonly DefinitionsNode[]): void {
    if (target === 'root' || this.waitingRefresh === 'root') this.waitingRefresh = 'root';
    else if (target.length) {
      this.waitingRefresh ??= new Set();
      for (const node of target) this.waitingRefresh.add(node);
    }
    this.scheduleRefresh();
  }

  private scheduleRefresh(): void {
    if (!this.waitingRefresh || this.refreshTimer) return;
    if (!this.treeView.visible) {
      if (this.shownRoots) this.waitingRefresh = 'root'; // the workbench kept its old nodes meanwhile
      return;
    }
    const wait = Math.max(0, this.treeAskedAt + TREE_QUIET_MS - Date.now());
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = undefined;
      if (Date.now() - this.treeAskedAt < TREE_QUIET_MS) return this.scheduleRefresh();
      const target = this.waitingRefresh;
      this.waitingRefresh = undefined;
      if (!target || !this.treeView.visible) return void (this.waitingRefresh = target);
      this.treeAskedAt = Date.now();
      this.changed.fire(target === 'root' ? undefined : [...target]);
    }, wait);
  }

  private visibleMembers(group: GroupNode): DefinitionNode[] {
    const all = this.store.membersOf(group);
    return this.onlyProblems ? all.filter((n) => hasProblems(n.definition)) : all;
  }

  private visibleIn(runtime: RuntimeNode): DefinitionNode[] {
    const out: DefinitionNode[] = [];
    for (const g of this.store.groupsOf(runtime)) for (const n of this.visibleMembers(g)) out.push(n);
    return out;
  }

  private updateMessage(): void {
    const all = this.store.size;
    const parts: string[] = [];
    if (!this.complete) parts.push(`Indexing the workspace… ${all} definition${all === 1 ? '' : 's'} so far.`);
    if (this.onlyProblems && all) {
      let shown = 0;
      for (const n of this.store.all()) if (hasProblems(n.definition)) shown++;
      parts.push(`Only problems: ${shown} of ${all} definitions.`);
    }
    this.treeView.message = parts.length ? parts.join(' ') : undefined;
  }

  private runtime(id: Runtime) {
    return runtimeInfo(this.store.runtimeInfo, id);
  }

  private tooltip(d: DefinitionNode['definition']): vscode.MarkdownString {
    const md = new vscode.MarkdownString(undefined, true);
    md.appendMarkdown(`**${escape(d.name || '(unnamed)')}** (${this.runtime(d.dialect).title})\n\n`);
    md.appendMarkdown(`${statusLine(d)}\n\n`);
    const problems = problemsLine(d);
    if (problems) md.appendMarkdown(`Problems: ${problems}.\n\n`);
    if (d.reasons?.length) md.appendMarkdown(`Because of: ${d.reasons.map((r) => `\`${r}\``).join(', ')}\n\n`);
    if (d.silenced?.length)
      md.appendMarkdown(
        `Hidden by your settings, applied by the runtime all the same: ${d.silenced.map((r) => `\`${r}\``).join(', ')}\n\n`,
      );
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
      return [
        this.detail(node, 0, {
          kind: 'note',
          label: 'Could not resolve',
          description: e instanceof Error ? e.message : String(e),
        }),
      ];
    }
    if (!resolved) return [this.detail(node, 0, { kind: 'note', label: 'Not found in the file any more' })];
    return toolRows(resolved).map((row, i) => this.detail(node, i, row));
  }

  private detail(parent: DefinitionNode, i: number, row: ToolRow): DetailNode {
    return { kind: 'detail', id: `${parent.id}/${i}:${row.kind}:${row.label}`, row, parent };
  }
}

function countLine(defs: DefinitionNode[]): string {
  const failing = defs.filter((n) => n.definition.status === 'rejected' || n.definition.status === 'dropped').length;
  return `${defs.length}${failing ? ` · ${failing} not loading` : ''}`;
}

const escape = (text: string): string => text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
