/**
 * Each dialect's skeleton (the completion snippet of an empty file, and what "New Subagent…" and
 * `subagents new` will write) is, with its placeholders at their defaults, a definition its
 * runtime loads without an error or a warning.
 */
import { strict as assert } from 'assert';
import { DiagnosticSeverity } from 'vscode-languageserver-types';
import { analyze, defaultLoadedConfig, nestedDefinitionEdits, resolveAnalysis, skeletonText } from '../shared';

const WS = '/ws';
const FILES: Record<string, string> = {
  polytoken: `${WS}/.polytoken/subagents/triage.md`,
  picasso: `${WS}/apps/cli/agents/code_review.yaml`,
  profy: `${WS}/experts/ledger.expert.json`,
};

describe('skeletons of new definitions', () => {
  for (const [dialect, path] of Object.entries(FILES)) {
    it(`${dialect}: the skeleton loads, without errors or warnings`, () => {
      const name = path.split('/').pop()!.replace(/\..*$/, '');
      const text = skeletonText(dialect, name);
      assert.ok(text && !/\$\{|\$\d/.test(text), 'placeholders are filled in');
      const analysis = analyze({ text, path, config: defaultLoadedConfig(WS), root: WS });
      assert.strictEqual(analysis.kind, dialect);
      const serious = analysis.diagnostics.filter((d) => (d.severity ?? 1) <= DiagnosticSeverity.Warning);
      assert.deepStrictEqual(serious, []);
      const definitions = resolveAnalysis(analysis, path)!.definitions;
      assert.ok(definitions.length > 0);
      for (const d of definitions) assert.strictEqual(d.status, 'loads', d.name);
    });
  }
});

describe('a new subagent added to an Expert', () => {
  it("keeps the file's line ending, LF or CRLF", () => {
    const lf = '{\n  "name": "book",\n  "subagents": []\n}\n';
    for (const text of [lf, lf.replace(/\n/g, '\r\n')]) {
      const added = nestedDefinitionEdits('profy', text, 'scan');
      assert.ok(added.ok, JSON.stringify(added));
      const crlf = text.includes('\r\n');
      const after = added.after;
      assert.match(after, /"name": "scan"/);
      assert.strictEqual(
        after.split('\r\n').length - 1,
        crlf ? after.split('\n').length - 1 : 0,
        JSON.stringify(after),
      );
    }
  });
});
