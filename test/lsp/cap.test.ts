import * as assert from 'assert';
import type { Diagnostic } from 'vscode-languageserver-types';
import { capDiagnostics } from '../../server/server';

describe('published diagnostics are capped per document', () => {
  const d = (line: number, severity: 1 | 2 | 3 | 4): Diagnostic => ({
    range: { start: { line, character: 0 }, end: { line, character: 1 } },
    severity,
    message: `l${line}`,
    source: 'subagents',
    code: 'x/y',
  });

  it('passes small lists through untouched', () => {
    const list = [d(0, 1), d(1, 2)];
    assert.strictEqual(capDiagnostics(list, 5), list);
  });

  it('keeps the most severe in position order, with a note saying how many there were', () => {
    const list = [d(0, 2), d(1, 4), d(2, 1), d(3, 2), d(4, 1), d(5, 3)];
    const out = capDiagnostics(list, 3);
    assert.strictEqual(out.length, 4);
    assert.match(String(out[0].message), /^6 problems in this file; the 3 most severe are shown/);
    assert.deepStrictEqual(
      out.slice(1).map((x) => x.message),
      ['l0', 'l2', 'l4'],
    );
  });
});
