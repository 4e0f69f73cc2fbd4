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
  type DefinitionNode,
  type DefinitionsNode,
  type DetailNode,
  type GroupNode,
  type RuntimeNode,
} from './definitions-store';

export type { DefinitionsNode } from './definitions-store';

const DEFINITIONS_VIEW_ID = 'subagents.definitions';
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
    if (!node) {
      if (!this.loaded) await this.fetch();
      return this.store.runtimeNodes().filter((n) => this.visibleIn(n).length > 0);
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
    const firstLoad = !this.loaded;
    this.loaded = true;
    this.complete = result.complete;
    void vscode.commands.executeCommand('setContext', LOADING_KEY, !result.complete && !result.definitions.length);
    if (result.runtimes) this.store.setRuntimes(result.runtimes);
    const { refresh, structure } = this.store.apply(wanted, result.definitions);
    this.updateMessage();
    if (firstLoad || wanted === 'all' || structure) this.changed.fire(undefined);
    else if (refresh.size) this.changed.fire([...refresh]);
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
