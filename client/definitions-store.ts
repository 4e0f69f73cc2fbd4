/**
 * The Subagents view's data (no `vscode` here): the server's definitions as stable node objects
 * (VS Code finds tree elements by identity), grouped by runtime and group, and which nodes an
 * answer changed, so that the view refreshes only those.
 */
import type { WorkspaceDefinition, WorkspaceRuntime } from '../shared/protocol';
import { hasProblems, type Runtime, type ToolRow } from './definitions-model';

export type DefinitionsNode = RuntimeNode | GroupNode | DefinitionNode | DetailNode;

export interface RuntimeNode {
  kind: 'runtime';
  id: string;
  runtime: Runtime;
}
export interface GroupNode {
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
export interface DetailNode {
  kind: 'detail';
  id: string;
  row: ToolRow;
  parent: DefinitionNode;
}

const byName = (a: DefinitionNode, b: DefinitionNode) =>
  a.definition.name.localeCompare(b.definition.name) ||
  a.uri.localeCompare(b.uri) ||
  a.definition.index - b.definition.index;

/** What an answer changed: the nodes that show something new, or `structure` when a runtime or group came or went. */
export interface StoreChange {
  refresh: Set<DefinitionsNode>;
  structure: boolean;
}

export class DefinitionsStore {
  /** The server's answer, by file. */
  private readonly files = new Map<string, WorkspaceDefinition[]>();
  private readonly runtimes = new Map<Runtime, RuntimeNode>();
  private readonly groups = new Map<string, GroupNode>();
  private readonly definitions = new Map<string, DefinitionNode>();
  /** Each group's definitions, and the same sorted (made when asked, dropped when the group changes). */
  private readonly members = new Map<string, Set<DefinitionNode>>();
  private readonly sorted = new Map<string, DefinitionNode[]>();
  /** The runtimes as the server describes them (title, icons), in the order it shows them. */
  readonly runtimeInfo = new Map<Runtime, WorkspaceRuntime>();
  private runtimeOrder: Runtime[] = [];

  get size(): number {
    return this.definitions.size;
  }

  all(): IterableIterator<DefinitionNode> {
    return this.definitions.values();
  }

  /** Takes in the server's description of the runtimes (from `subagents/workspace`). */
  setRuntimes(runtimes: readonly WorkspaceRuntime[]): void {
    this.runtimeInfo.clear();
    for (const r of runtimes) this.runtimeInfo.set(r.id, r);
    this.runtimeOrder = runtimes.map((r) => r.id);
  }

  /** The runtimes that have definitions, in the server's order (runtimes it did not describe last, by id). */
  runtimeNodes(): RuntimeNode[] {
    const rank = (id: Runtime) => {
      const at = this.runtimeOrder.indexOf(id);
      return at < 0 ? this.runtimeOrder.length : at;
    };
    return [...this.runtimes.values()].sort(
      (a, b) => rank(a.runtime) - rank(b.runtime) || a.runtime.localeCompare(b.runtime),
    );
  }

  groupsOf(runtime: RuntimeNode): GroupNode[] {
    return [...this.groups.values()].filter((g) => g.parent === runtime).sort((a, b) => a.group.localeCompare(b.group));
  }

  /** A group's definitions by name. */
  membersOf(group: GroupNode): DefinitionNode[] {
    let all = this.sorted.get(group.id);
    if (!all) this.sorted.set(group.id, (all = [...(this.members.get(group.id) ?? [])].sort(byName)));
    return all;
  }

  nodeFor(uri: string, name: string): DefinitionNode | undefined {
    for (const n of this.definitions.values()) if (n.uri === uri && n.definition.name === name) return n;
    return undefined;
  }

  /** Takes in an answer for `wanted` files (or every file). */
  apply(wanted: ReadonlySet<string> | 'all', definitions: readonly WorkspaceDefinition[]): StoreChange {
    const byUri = new Map<string, WorkspaceDefinition[]>();
    for (const d of definitions) {
      const list = byUri.get(d.uri);
      if (list) list.push(d);
      else byUri.set(d.uri, [d]);
    }
    const uris = wanted === 'all' ? new Set([...this.files.keys(), ...byUri.keys()]) : wanted;
    const change: StoreChange = { refresh: new Set(), structure: false };
    for (const uri of uris) this.replaceFile(uri, byUri.get(uri) ?? [], change);
    return change;
  }

  /**
   * Replaces one file's definitions; says which nodes show something new, and whether a runtime or group came or went.
   */
  private replaceFile(uri: string, next: WorkspaceDefinition[], change: StoreChange): void {
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
      change.structure ||= created;
      const existing = this.definitions.get(id);
      if (existing && existing.parent === group) {
        const old = existing.definition;
        if (JSON.stringify(old) === JSON.stringify(d)) continue;
        existing.definition = d;
        change.refresh.add(existing);
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
        change.structure = true;
      }
      change.refresh.add(group).add(group.parent);
    }
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
}
