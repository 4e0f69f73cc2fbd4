/**
 * Corner cases taken from the runtimes' own documents (test/fixtures/corners/CASES.md).
 *
 * Each case folder `<dialect>/<case>/` is a tiny workspace with inline markers (see
 * test/support/fixtures.ts): the diagnostics must match them exactly. A case may also hold
 * `resolution.json`, `{ "<file>": [{ "name", "status", "tools"?, "silenced"? }] }`: what the
 * runtime does with each definition of that file, compared on the fields given.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { resolveAnalysis } from '../shared/engine';
import { shownStatus, type ResolvedDefinition } from '../shared/types';
import { withFixture, type FixtureResult } from './support/fixtures';
import { assertSnapshot, MESSAGES_FILE, messageLines } from './support/messages';

const CORNERS = path.resolve(__dirname, '../../test/fixtures/corners');
const RESOLUTION_FILE = 'resolution.json';

/** The case folders, as `<dialect>/<case>`. */
function caseFolders(): string[] {
  return fs
    .readdirSync(CORNERS, { withFileTypes: true })
    .filter((group) => group.isDirectory())
    .flatMap((group) =>
      fs
        .readdirSync(path.join(CORNERS, group.name), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => `${group.name}/${entry.name}`),
    )
    .sort();
}

type ExpectedDefinition = Pick<ResolvedDefinition, 'name' | 'status'> & { tools?: string[]; silenced?: string[] };

/** The resolution of each file named in `resolution.json`, reduced to the fields the case gives. */
function resolutions(
  result: FixtureResult,
  expected: Record<string, ExpectedDefinition[]>,
): Record<string, Record<string, unknown>[]> {
  const actual: Record<string, Record<string, unknown>[]> = {};
  for (const [file, definitions] of Object.entries(expected)) {
    const report = result.reports.find(
      (r) => path.posix.relative(result.workspace.replace(/\\/g, '/'), r.path) === file,
    );
    const resolved = report?.analysis ? resolveAnalysis(report.analysis, file) : undefined;
    actual[file] = (resolved?.definitions ?? []).map((d, i) => {
      const shape = definitions[i] ?? definitions[0];
      const given = d as ResolvedDefinition & { silenced?: string[] };
      const out: Record<string, unknown> = { name: d.name, status: shownStatus(d) };
      if (shape?.tools) out.tools = d.tools;
      // `silenced: []` in a case means "none": an absent field matches it.
      if (shape?.silenced) out.silenced = [...(given.silenced ?? [])].sort();
      return out;
    });
  }
  return actual;
}

function normalized(expected: Record<string, ExpectedDefinition[]>): Record<string, Record<string, unknown>[]> {
  const out: Record<string, Record<string, unknown>[]> = {};
  for (const [file, definitions] of Object.entries(expected)) {
    out[file] = definitions.map((d) => ({ ...d, ...(d.silenced ? { silenced: [...d.silenced].sort() } : {}) }));
  }
  return out;
}

describe('corner cases from the runtime documents', () => {
  const cases = caseFolders();

  it('CASES.md lists exactly the case folders', () => {
    const listed = [...fs.readFileSync(path.join(CORNERS, 'CASES.md'), 'utf8').matchAll(/^### `([\w-]+\/[\w-]+)`/gm)]
      .map((m) => m[1])
      .sort();
    assert.deepStrictEqual(listed, cases);
  });

  for (const rel of cases) {
    it(rel, () => {
      const dir = path.join(CORNERS, rel);
      withFixture(dir, (result) => {
        // A case with nothing the checker reads would pass vacuously.
        assert.ok(result.reports.length > 0, `${rel}: the case holds no file the checker reads`);
        assert.deepStrictEqual(result.actual, result.expected, `${rel}: diagnostics (file:line rule)`);
        assertSnapshot(path.join(dir, MESSAGES_FILE), messageLines(result.reports, result.workspace));
        const resolutionFile = path.join(dir, RESOLUTION_FILE);
        if (!fs.existsSync(resolutionFile)) return;
        const expected = JSON.parse(fs.readFileSync(resolutionFile, 'utf8')) as Record<string, ExpectedDefinition[]>;
        assert.deepStrictEqual(resolutions(result, expected), normalized(expected), `${rel}: resolution`);
      });
    });
  }
});
