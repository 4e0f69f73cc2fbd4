import * as assert from 'assert';
import { analyze } from '../../shared/engine';
import { defaultLoadedConfig } from '../../shared/config/config';
import { SourceText } from '../../shared/text/source';
import { completions } from '../../shared/features/completion';
import { hover } from '../../shared/features/hover';
import { codeActions } from '../../shared/features/code-actions';
import { documentSymbols, foldingRanges } from '../../shared/features/symbols';
import { codeLenses } from '../../shared/features/code-lens';
import { definition } from '../../shared/features/definition';
import { resolveWithProvenance } from '../../shared/features/resolve';

/**
 * Typing a definition character by character: at every intermediate text, every editor
 * feature answers (arrays stay arrays) and never throws, however broken the text is.
 */
const SAMPLES: [string, string][] = [
  [
    '/w/.polytoken/subagents/triage.md',
    '---\nname: triage\ndescription: "Sorts [issues]"\npolytoken:\n  tools: [file_read, "grep", tag!ALL, mcp__gh]\n  tools_deny:\n    - glob\n    - job_status\n  undeferred_tools: [grep]\n  auto_facet_hint: x\n  exit_tool_schema:\n    type: object\n    properties:\n      status: { type: string, enum: [ok, weird] }\n---\nBody {% if x %}{{ y }}\n',
  ],
  [
    '/w/.picasso/agents/auditor.md',
    'name: Auditor\ninvocation: "@aud"\ntools:\n  - read_file\n  - grep\ndeny: [grep]\nmemory: none\nhooks:\n  skip: [post-act]\nsystem_prompt: |\n  You audit.\n',
  ],
  [
    '/w/book.expert.json',
    '{\n  "name": "book",\n  "tools": ["read", "grep"],\n  "subagents": [\n    { "name": "a b", "description": "d", "system_prompt": "p", "tools": ["re*", "Task"] },\n    7\n  ]\n}\n',
  ],
];

describe('editor features while typing (every prefix of a definition)', () => {
  for (const [path, full] of SAMPLES) {
    it(path, () => {
      const config = defaultLoadedConfig('/w');
      let calls = 0;
      for (let n = 0; n <= full.length; n++) {
        const text = full.slice(0, n);
        const analysis = analyze({ text, path, config, root: '/w' });
        const source = new SourceText(text);
        const position = source.position(text.length);
        const mid = source.position(Math.floor(text.length / 2));
        for (const at of [position, mid]) {
          assert.ok(Array.isArray(completions(analysis, at)), `completion at ${n}`);
          hover(analysis, at);
          definition(analysis, at, { readText: () => undefined, pathToUri: (p) => `file://${p}` });
          calls++;
        }
        assert.ok(
          Array.isArray(
            codeActions(
              analysis,
              'file:///x',
              { start: position, end: position },
              { diagnostics: analysis.diagnostics },
              { renameFiles: true },
            ),
          ),
        );
        assert.ok(Array.isArray(documentSymbols(analysis)));
        assert.ok(Array.isArray(foldingRanges(analysis)));
        assert.ok(Array.isArray(codeLenses(analysis, 'file:///x')));
        resolveWithProvenance(analysis, 'file:///x');
      }
      assert.ok(calls > full.length);
      // The complete text gets real answers: the loop above is not satisfied by features that always answer [].
      const analysis = analyze({ text: full, path, config, root: '/w' });
      assert.ok(analysis.diagnostics.length > 0, 'the sample has findings');
      assert.ok(documentSymbols(analysis).length > 0, 'document symbols');
      assert.ok(foldingRanges(analysis).length > 0, 'folding ranges');
      assert.ok(codeLenses(analysis, 'file:///x').length > 0, 'code lenses');
      const whole = { start: { line: 0, character: 0 }, end: { line: full.split('\n').length, character: 0 } };
      assert.ok(
        codeActions(analysis, 'file:///x', whole, { diagnostics: analysis.diagnostics }, { renameFiles: true }).length >
          0,
        'code actions',
      );
      assert.ok(resolveWithProvenance(analysis, 'file:///x'), 'resolution');
    });
  }
});
