/**
 * Suppression comments through the real server: the directive names and the rule ids complete,
 * hover explains them, and known rule ids link to their pages (also under `rules:` in
 * `.subagents.yaml`). Text that only looks like a comment (inside a block scalar) gets none of it.
 */
import * as assert from 'assert';
import * as path from 'path';
import type { CompletionItem, CompletionList, DocumentLink, Hover, MarkupContent } from 'vscode-languageserver-types';
import { cursor, startServer, type TestClient } from './harness';

const poly = (frontmatter: string) =>
  `---\nname: triage\ndescription: Sorts issues.\n${frontmatter}---\nYou triage issues.\n`;

describe('LSP: suppression comments', function () {
  this.timeout(60000);
  let client: TestClient;
  let ws: string;
  const polyFile = () => path.join(ws, '.polytoken/subagents/triage.md');
  const roleFile = () => path.join(ws, 'apps/cli/agents/auditor.yaml');

  before(async () => {
    ({ client, ws } = await startServer({ '.subagents.yaml': 'rules: {}\n' }));
  });
  after(async () => client.stop());

  async function ask<R>(method: string, file: string, marked: string): Promise<R> {
    const { text, position } = cursor(marked);
    const uri = await client.open(file, text);
    try {
      return await client.request<R>(method, { textDocument: { uri }, position });
    } finally {
      await client.close(uri);
    }
  }

  const labels = async (file: string, marked: string) => {
    const r = await ask<CompletionList | CompletionItem[] | null>('textDocument/completion', file, marked);
    return (Array.isArray(r) ? r : (r?.items ?? [])).map((i) => i.label);
  };
  const hoverText = async (file: string, marked: string) =>
    ((await ask<Hover | null>('textDocument/hover', file, marked))?.contents as MarkupContent | undefined)?.value ?? '';

  it('completes the directive names after `# s`', async () => {
    assert.deepStrictEqual(await labels(polyFile(), poly('polytoken:\n  # subag|\n  tools: [grep]\n')), [
      'subagents-disable-next-line',
      'subagents-disable',
    ]);
  });

  it("completes this dialect's rule ids (and the syntax ones) in a directive's list, without those listed", async () => {
    const ids = await labels(
      polyFile(),
      poly('polytoken:\n  # subagents-disable-next-line polytoken/unknown-tool, poly|\n  tools: [grep]\n'),
    );
    assert.ok(ids.includes('polytoken/unknown-key') && ids.includes('syntax/yaml'), ids.join(', '));
    assert.ok(!ids.includes('polytoken/unknown-tool'), 'a listed id is not offered again');
    assert.ok(
      !ids.some((id) => id.startsWith('picasso/') || id.startsWith('directive/') || id.startsWith('config/')),
      ids.join(', '),
    );
    const picasso = await labels(roleFile(), 'name: auditor\n# subagents-disable |\ntools: [read_file]\n');
    assert.ok(
      picasso.includes('picasso/unknown-tool') && !picasso.includes('polytoken/unknown-tool'),
      picasso.join(', '),
    );
  });

  it('nothing inside a block scalar, where `#` is text, not a comment', async () => {
    assert.deepStrictEqual(await labels(roleFile(), 'name: auditor\nsystem_prompt: |\n  # subagents-disable |\n'), []);
  });

  it('hover on a rule id (known and unknown) and on the directive', async () => {
    const text =
      'polytoken:\n  # subagents-disable-next-line polytoken/unknown-t|ool, polytoken/nope\n  tools: [file_raed]\n';
    assert.match(
      await hoverText(polyFile(), poly(text)),
      /^\*\*polytoken\/unknown-tool\*\* \u2014 default: warning\n\nA tool, tag or MCP server/,
    );
    assert.match(
      await hoverText(polyFile(), poly(text.replace('unknown-t|ool', 'unknown-tool').replace('nope', 'no|pe'))),
      /`polytoken\/nope` is not a rule id/,
    );
    assert.match(
      await hoverText(
        polyFile(),
        poly(text.replace('unknown-t|ool', 'unknown-tool').replace('disable-next', 'disable-ne|xt')),
      ),
      /^\*\*subagents-disable-next-line\*\*: Silences the rules it names/,
    );
  });

  it('links known rule ids to their pages: in directives, and under `rules:` in .subagents.yaml', async () => {
    const links = async (file: string, text: string) => {
      const uri = await client.open(file, text);
      try {
        return (await client.request<DocumentLink[]>('textDocument/documentLink', { textDocument: { uri } })).map(
          (l) => [l.range.start.line, l.range.start.character, l.target],
        );
      } finally {
        await client.close(uri);
      }
    };
    assert.deepStrictEqual(await links(polyFile(), poly('# subagents-disable polytoken/nope, polytoken/shadowed\n')), [
      [3, 36, 'https://github.com/subagents-tooling/subagents/blob/main/docs/rules/polytoken/shadowed.md'],
    ]);
    assert.deepStrictEqual(
      await links(path.join(ws, '.subagents.yaml'), 'rules:\n  picasso/unknown-tool: off\n  picasso/nope: off\n'),
      [[1, 2, 'https://github.com/subagents-tooling/subagents/blob/main/docs/rules/picasso/unknown-tool.md']],
    );
  });
});
