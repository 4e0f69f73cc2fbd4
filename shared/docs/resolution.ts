import { toolCount, type Resolution, type ResolvedDefinition } from '../results';
import type { StatusSummary } from '../protocol';
import { dialectModule } from '../dialects';

/** The file holds several definitions (a Profy Expert's subagents): each gets its own heading and count. */
const holdsMany = (r: Resolution) => dialectModule(r.dialect)?.definitionsPerFile === 'many';

/** Renders a `subagents/resolve` answer as Markdown for the preview. Pure: no `vscode` here. */

const STATUS_LABEL: Record<string, string> = {
  loads: '✓ loads',
  rejected: '✗ rejected: the runtime refuses to load it',
  dropped: '✗ dropped: the runtime skips it without any error',
};

/** What an unknown entry means, said once under the chips. */
const UNKNOWN_NOTE =
  'not in the catalog, so the runtime will likely grant no such tool; if it exists, declare it under `tools` or `mcp` in .subagents.yaml.';

/** A heading's count, the unknown entries apart: `3`, `3 + 1 unknown`. */
const countApart = (tools: number, unknown: number): string =>
  unknown ? `${tools - unknown} + ${unknown} unknown` : `${tools}`;

const code = (s: string): string => '`' + s.replace(/`/g, 'ˋ') + '`';
const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
/**
 * Plain text in Markdown (`mcp__ledger__*` shows as written: only an underscore that starts a word could open
 * emphasis).
 */
const text = (s: string): string => s.replace(/[\\`*[\]<>|~]|(?<!\w)_/g, '\\$&').replace(/\r?\n/g, ' ');

/**
 * Tools grouped by where they come from (the first source of each; the table lists them all), in order of first
 * appearance.
 */
function bySource(tools: readonly string[], sourceOf: (tool: string) => string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const tool of tools) {
    const source = sourceOf(tool);
    const list = out.get(source);
    if (list) list.push(tool);
    else out.set(source, [tool]);
  }
  return out;
}

const chips = (groups: Map<string, string[]>, chip: (tool: string) => string): string =>
  [...groups].map(([source, tools]) => `${source ? `${text(source)} → ` : ''}${tools.map(chip).join(' ')}`).join(' · ');

/**
 * The tool set at a glance: one line of chips (code spans) per kind, each chip after the entry
 * or mechanism it comes from. VS Code's preview draws code spans as chips; as plain text it
 * still reads as a list. Appended to `out`.
 */
function toolSetChips(d: ResolvedDefinition, out: string[]): void {
  const undeferred = new Set(d.undeferred ?? []);
  const unknown = new Set(d.unknown ?? []);
  const granted = bySource(d.tools, (t) => d.provenance?.[t]?.[0] ?? '');
  const chip = (t: string) => `${code(t)}${unknown.has(t) ? ' ❓' : ''}${undeferred.has(t) ? ' ⚡' : ''}`;
  out.push(`- ✓ **Granted (${countApart(d.tools.length, unknown.size)})**: ${d.tools.length ? chips(granted, chip) : '_none_'}`);
  if (unknown.size) out.push(`- ❓ **Unknown (${unknown.size})**: ${[...unknown].map(code).join(' ')}: ${UNKNOWN_NOTE}`);
  if (d.removed.length) {
    // The first removal of a tool names what removed it (a lookup per chip would be quadratic).
    const removedBy = new Map<string, string>();
    for (const r of d.removed) if (!removedBy.has(r.tool)) removedBy.set(r.tool, r.by);
    out.push(`- ⊘ **Removed (${d.removed.length})**: ${chips(bySource(d.removed.map((r) => r.tool), (t) => removedBy.get(t)!), (t) => `~~${code(t)}~~`)}`);
  }
  if (undeferred.size) out.push(`- ⚡ **Undeferred (${undeferred.size})**: ${[...undeferred].map(code).join(' ')}`);
  if (d.dropped?.length) out.push(`- ✗ **Dropped entries (${d.dropped.length})**: ${d.dropped.map((e) => `~~${code(e.entry)}~~ (${text(e.reason)})`).join(' · ')}`);
  if (d.unexpanded?.length) out.push(`- ? **Not expanded (${d.unexpanded.length})**: ${d.unexpanded.map(code).join(' ')}`);
}

function renderDefinition(d: ResolvedDefinition, multiple: boolean): string[] {
  const out: string[] = [];
  out.push(`${multiple ? '###' : '##'} ${d.name ? code(d.name) : '(unnamed)'}: ${STATUS_LABEL[d.status] ?? d.status}`, '');
  if (d.reasons?.length) out.push(`Because of: ${d.reasons.map(code).join(', ')}`, '');
  if (d.silenced?.length) out.push(`Silenced in your settings or by a suppression comment, but the runtime still applies it: ${d.silenced.map(code).join(', ')}`, '');
  if (d.shadowedBy) out.push(`**Shadowed:** it never runs, because a later definition of the same name replaces it: ${code(d.shadowedBy)}`, '');
  toolSetChips(d, out);
  out.push('');

  const unknown = new Set(d.unknown ?? []);
  out.push(`**Effective tools (${countApart(d.tools.length, unknown.size)})**`, '');
  if (d.tools.length) {
    out.push('| Tool | Granted by |', '| --- | --- |');
    const undeferred = new Set(d.undeferred ?? []);
    for (const t of d.tools) {
      const by = d.provenance?.[t]?.join(', ') ?? '';
      const marks = [unknown.has(t) ? 'unknown tool' : '', undeferred.has(t) ? 'undeferred' : ''].filter(Boolean);
      out.push(`| ${code(t)}${marks.length ? ` (${marks.join(', ')})` : ''} | ${cell(by)} |`);
    }
  } else {
    out.push('_No tools._');
  }
  out.push('');

  if (d.undeferred !== undefined) {
    out.push(`**Undeferred:** ${d.undeferred.length ? d.undeferred.map(code).join(', ') : '_none_'}`, '');
  }
  if (d.unexpanded?.length) {
    out.push(`**Unexpanded shorthands** (the catalog cannot expand them; nothing is guessed): ${d.unexpanded.map(code).join(', ')}`, '');
  }
  if (d.removed.length) {
    out.push('**Removed**', '', '| Tool | Removed by |', '| --- | --- |');
    for (const r of d.removed) out.push(`| ${code(r.tool)} | ${cell(r.by)} |`);
    out.push('');
  }
  if (d.dropped?.length) {
    out.push('**Dropped entries**', '', '| Entry | Reason |', '| --- | --- |');
    for (const r of d.dropped) out.push(`| ${code(r.entry)} | ${cell(r.reason)} |`);
    out.push('');
  }
  return out;
}

/**
 * `live`: the rendering follows edits (the VS Code preview); a one-off rendering (the server's file) says nothing about
 * it.
 */
export function renderResolution(r: Resolution, fileLabel: string, { live = true }: { live?: boolean } = {}): string {
  const out: string[] = [`# Resolved: ${fileLabel}`, '', `Dialect: **${r.dialect}**${live ? ' · live: updates as you edit the definition.' : ''}`, ''];
  const multiple = holdsMany(r);
  if (multiple) out.push(`## Subagents (${r.definitions.length})`, '');
  if (!r.definitions.length) out.push('_No definitions in this file._', '');
  for (const d of r.definitions) for (const line of renderDefinition(d, multiple)) out.push(line);
  return out.join('\n');
}

export function renderError(message: string, fileLabel: string): string {
  return `# Resolved: ${fileLabel}\n\nThe language server could not resolve this file: ${message}\n`;
}


/** The status bar text for a resolved file, e.g. `$(check) polytoken · loads · 4 tools`. */
export function summarize(r: Resolution): StatusSummary {
  const defs = r.definitions;
  const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;
  const count = (d: ResolvedDefinition) => toolCount(d.tools.length, d.unknown?.length);
  if (defs.length === 1 && !holdsMany(r)) {
    const d = defs[0];
    const icon = d.status === 'loads' ? '$(check)' : d.status === 'dropped' ? '$(warning)' : '$(error)';
    return {
      text: `${icon} ${r.dialect} · ${d.status} · ${count(d)}`,
      tooltip: `${d.name || '(unnamed)'}: ${d.status}, ${count(d)}. Click to show the resolved tool set.`,
    };
  }
  const notLoading = defs.filter((d) => d.status !== 'loads');
  if (!defs.length) return { text: `$(info) ${r.dialect} · no subagents`, tooltip: 'No subagent definitions in this file.' };
  if (!notLoading.length) {
    return {
      text: `$(check) ${r.dialect} · ${plural(defs.length, 'subagent')} · all load`,
      tooltip: defs.map((d) => `${d.name}: loads, ${count(d)}`).join('\n'),
    };
  }
  const anyRejected = notLoading.some((d) => d.status === 'rejected');
  const verb = anyRejected ? 'not loaded' : 'dropped';
  return {
    text: `${anyRejected ? '$(error)' : '$(warning)'} ${r.dialect} · ${notLoading.length} of ${plural(defs.length, 'subagent')} ${verb}`,
    tooltip: defs.map((d) => `${d.name || '(unnamed)'}: ${d.status}, ${count(d)}`).join('\n'),
  };
}
