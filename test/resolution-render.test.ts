/**
 * The resolve preview's tool-set chips (shared/docs/resolution.ts), rendered with markdown-it as
 * VS Code's Markdown preview does, and read as plain Markdown.
 */
import * as assert from 'assert';
import MarkdownIt from 'markdown-it';
import { analyze } from '../shared/engine';
import { defaultLoadedConfig } from '../shared/config/config';
import { resolveWithProvenance } from '../shared/features/resolve';
import { renderError, renderResolution, summarize } from '../shared/docs/resolution';

const markdown = new MarkdownIt({ html: true });

function rendered(rel: string, text: string): { md: string; html: string } {
  const path = `/ws/${rel}`;
  const resolution = resolveWithProvenance(
    analyze({ text, path, config: defaultLoadedConfig('/ws'), root: '/ws' }),
    `file://${path}`,
  );
  assert.ok(resolution);
  const md = renderResolution(resolution, rel);
  return { md, html: markdown.render(md) };
}

/** The list item whose text starts with `label` (its inner HTML). */
function item(html: string, label: string): string {
  const found = html.split('<li>').find((li) => li.includes(`<strong>${label}`));
  assert.ok(found, `a list item ${label} in\n${html}`);
  return found.slice(0, found.indexOf('</li>'));
}

describe('the resolve preview: tool-set chips', () => {
  const POLY =
    '---\nname: triage\ndescription: Sorts.\npolytoken:\n  tools: [file_read, grep, glob]\n  tools_deny: [grep]\n  undeferred_tools: [file_read]\n---\nSort.\n';

  it('shows granted tools as chips after their source, the undeferred one marked', () => {
    const { md, html } = rendered('.polytoken/subagents/triage.md', POLY);
    assert.ok(md.includes('- ✓ **Granted (3)**: always registered → `exit_tool` · tools → `file_read` ⚡ `glob`'), md);
    const granted = item(html, 'Granted (3)');
    assert.match(
      granted,
      /always registered → <code>exit_tool<\/code> · tools → <code>file_read<\/code> ⚡ <code>glob<\/code>/,
    );
    assert.match(item(html, 'Undeferred (1)'), /<code>file_read<\/code>/);
  });

  it('shows removed tools struck through, after what removed them; no removed line when nothing is', () => {
    const { html } = rendered('.polytoken/subagents/triage.md', POLY);
    assert.match(item(html, 'Removed (1)'), /tools_deny → <s><code>grep<\/code><\/s>/);
    const { md } = rendered('.polytoken/subagents/triage.md', POLY.replace('  tools_deny: [grep]\n', ''));
    assert.doesNotMatch(md, /Removed/);
  });

  it('keeps a source that looks like Markdown as written (a Profy glob), and shows dropped entries', () => {
    const expert = {
      name: 'ledger',
      description: 'Books.',
      delegationBrief: 'Posts.',
      tools: ['read', 'mcp__ledger__post'],
      subagents: [
        { name: 'poster', description: 'Posts.', system_prompt: 'Post.', tools: ['mcp__ledger__*', 'write', 'edit'] },
      ],
    };
    const { html } = rendered('experts/ledger.expert.json', JSON.stringify(expert, null, 2));
    assert.match(item(html, 'Granted (1)'), /tools: mcp__ledger__\* → <code>mcp__ledger__post<\/code>/);
    assert.match(
      item(html, 'Dropped entries (2)'),
      /<s><code>write<\/code><\/s> \(not in the main toolset\) · <s><code>edit<\/code><\/s> \(not in the main toolset\)/,
    );
  });

  it('marks a tool the catalog does not know and counts it apart', () => {
    const { md } = rendered('.polytoken/subagents/triage.md', POLY.replace('[file_read', '[grpe, file_read'));
    assert.match(md, /\*\*Granted \(3 \+ 1 unknown\)\*\*: .*`grpe` ❓/);
    assert.match(md, /❓ \*\*Unknown \(1\)\*\*: `grpe`: not in the catalog/);
    const two = rendered('.polytoken/subagents/triage.md', POLY.replace('[file_read', '[grpe, zzz_tool, file_read')).md;
    assert.match(two, /❓ \*\*Unknown \(2\)\*\*: `grpe` `zzz_tool`: not in the catalog/);
    assert.ok(md.includes('| `grpe` (unknown tool) | tools |'), md);
    assert.ok(md.includes('**Effective tools (3 + 1 unknown)**'), md);
  });

  it('still lists every tool with all its sources in the table below', () => {
    const { md } = rendered('.polytoken/subagents/triage.md', POLY);
    assert.ok(
      md.includes(
        '**Effective tools (3)**\n\n| Tool | Granted by |\n| --- | --- |\n| `exit_tool` | always registered |\n' +
          '| `file_read` (undeferred) | tools |\n| `glob` | tools |\n',
      ),
      md,
    );
    assert.ok(md.indexOf('✓ **Granted') < md.indexOf('**Effective tools'), 'the chips come first');
  });

  it('says a definition with no tool has none: no chips, no table', () => {
    const expert =
      '{ "name": "book", "description": "d", "delegationBrief": "b", "tools": [], "subagents": [{ "name": "s", "description": "d", "system_prompt": "p", "tools": [] }] }';
    const { md } = rendered('experts/book.expert.json', expert);
    assert.ok(md.includes('\n- ✓ **Granted (0)**: _none_\n\n**Effective tools (0)**\n\n_No tools._\n'), md);
  });
});

describe('the resolve preview: verdicts and what is not expanded', () => {
  it('names a rule silenced by a comment that the runtime still applies, and a shorthand it cannot expand', () => {
    const text =
      '---\n# subagents-disable-next-line polytoken/name-mismatch\nname: other\ndescription: d\npolytoken:\n  tools: [file_read, mcp__nowhere]\n---\nx\n';
    const { md } = rendered('.polytoken/subagents/triage.md', text);
    for (const line of [
      '## `other`: ✗ rejected: the runtime refuses to load it\n\nBecause of: `polytoken/name-mismatch`\n',
      '\nSilenced in your settings or by a suppression comment, but the runtime still applies it: `polytoken/name-mismatch`\n',
      '\n- ? **Not expanded (1)**: `mcp__nowhere`\n',
      '\n**Unexpanded shorthands** (the catalog cannot expand them; nothing is guessed): `mcp__nowhere`\n',
    ])
      assert.ok(md.includes(line), `${JSON.stringify(line)} in\n${md}`);
  });

  it('says why a file could not be resolved', () => {
    assert.strictEqual(
      renderError('it is not a definition', 'notes.md'),
      '# Resolved: notes.md\n\nThe language server could not resolve this file: it is not a definition\n',
    );
  });
});

describe('the status bar summary of a resolution', () => {
  const resolution = (rel: string, text: string) => {
    const path = `/ws/${rel}`;
    const r = resolveWithProvenance(
      analyze({ text, path, config: defaultLoadedConfig('/ws'), root: '/ws' }),
      `file://${path}`,
    );
    assert.ok(r);
    return r;
  };
  const TRIAGE = '---\nname: triage\ndescription: Sorts.\npolytoken:\n  tools: [file_read, grep]\n---\nSort.\n';
  const expert = (...subagents: object[]) =>
    JSON.stringify({ name: 'book', description: 'd', tools: ['read', 'write'], subagents });
  const sub = (name: string, tools: string[]) => ({ name, description: 's', system_prompt: 'p', tools });

  it('one definition: its status and tool count, `(unnamed)` for an empty name', () => {
    const r = resolution('.polytoken/subagents/triage.md', TRIAGE);
    assert.deepStrictEqual(summarize(r), {
      text: '$(check) polytoken · loads · 3 tools',
      tooltip: 'triage: loads, 3 tools. Click to show the resolved tool set.',
    });
    r.definitions[0].name = '';
    assert.strictEqual(summarize(r).tooltip, '(unnamed): loads, 3 tools. Click to show the resolved tool set.');
    // A name that is not the file's: the runtime rejects it.
    const rejected = resolution('.polytoken/subagents/triage.md', TRIAGE.replace('name: triage', 'name: other'));
    assert.strictEqual(summarize(rejected).text, '$(error) polytoken · rejected · 3 tools');
  });

  it("a file of several: none, all loading, or how many do not (each one's line in the tooltip)", () => {
    const rel = 'experts/book.expert.json';
    assert.deepStrictEqual(summarize(resolution(rel, expert())), {
      text: '$(info) profy · no subagents',
      tooltip: 'No subagent definitions in this file.',
    });
    assert.deepStrictEqual(summarize(resolution(rel, expert(sub('a', ['read'])))), {
      text: '$(check) profy · 1 subagent · all load',
      tooltip: 'a: loads, 1 tool',
    });
    const dropped = resolution(rel, expert(sub('a', ['read']), sub('b', ['grep'])));
    assert.deepStrictEqual(summarize(dropped), {
      text: '$(warning) profy · 1 of 2 subagents dropped',
      tooltip: 'a: loads, 1 tool\nb: dropped, 0 tools',
    });
    dropped.definitions[1].name = '';
    assert.strictEqual(summarize(dropped).tooltip, 'a: loads, 1 tool\n(unnamed): dropped, 0 tools');
  });
});
