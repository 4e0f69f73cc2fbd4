import * as assert from 'assert';
import fc from 'fast-check';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { defaultLoadedConfig, parseConfig } from '../shared/config/config';
import { dialectOf } from '../shared/recognition';
import { ConfigResolver, resolveGlobalDir } from '../shared/node/config-loader';
import { parseJsonFile, parseMarkdownFile, parseYamlFile } from '../shared/text/document';
import { findFrontmatter, type Frontmatter } from '../shared/text/frontmatter';
import { SourceText } from '../shared/text/source';
import { findSuppressions, type Suppressions } from '../shared/text/suppress';
import { DirectiveUse } from '../shared/rules/directives';
import { describeError } from '../shared/host';
import { analyze, resolveAnalysis } from '../shared/engine';
import { parseMcpName } from '../shared/catalog/catalog';
import { nameFence } from '../shared/features/kit/tool-lines';

import { nodeAtOffset, nodeAtPath, pathOf } from '../shared/text/tree';

/** Whether the file's directives silence a rule on a line, as the engine applies them. */
const isSuppressed = (s: Suppressions, rule: string, line: number) => new DirectiveUse(s).silences(rule, line);

function rangeText(source: SourceText, start: number, end: number): string {
  return source.text.slice(start, end);
}

describe('core: frontmatter', () => {
  it('finds a closed block with LF and CRLF', () => {
    for (const eol of ['\n', '\r\n']) {
      const text = ['---', 'name: a', '---', 'body'].join(eol);
      const fm = findFrontmatter(text);
      assert.strictEqual(fm.kind, 'closed');
      if (fm.kind === 'closed') {
        assert.strictEqual(text.slice(fm.yamlStart, fm.yamlEnd), `name: a${eol}`);
        assert.strictEqual(text.slice(fm.bodyStart), 'body');
      }
    }
  });
  it('reports an unclosed and a missing block', () => {
    assert.strictEqual(findFrontmatter('---\nname: a\n').kind, 'unclosed');
    assert.strictEqual(findFrontmatter('name: a\n---\n').kind, 'none');
    assert.strictEqual(findFrontmatter('').kind, 'none');
  });
  it('finds the closing line as a line-by-line reading does (LF, CR, CRLF, spaces, tabs, near misses)', () => {
    // Lines split by a regular expression, each tested by another: the oracle.
    const reference = (text: string) => {
      const open = /^---[ \t]*(\r\n|\n|\r|$)/.exec(text);
      if (!open) return { kind: 'none' };
      const yamlStart = open[0].length;
      const line = /([^\r\n]*)(\r\n|\n|\r|$)/g;
      line.lastIndex = yamlStart;
      for (let m = line.exec(text); m && m[0] && m.index < text.length; m = line.exec(text)) {
        if (/^(---|\.\.\.)[ \t]*$/.test(m[1]))
          return { kind: 'closed', yamlStart, yamlEnd: m.index, closeStart: m.index, bodyStart: m.index + m[0].length };
      }
      return { kind: 'unclosed', openEnd: 3, yamlStart };
    };
    const piece = fc.constantFrom(
      '---',
      '...',
      '--',
      '----',
      ' ---',
      '--- ',
      '---\t',
      'a',
      'name: x',
      '\n',
      '\r',
      '\r\n',
      ' ',
      '.',
      'x---',
    );
    fc.assert(
      fc.property(fc.boolean(), fc.array(piece, { maxLength: 14 }), (opened, pieces) => {
        const text = (opened ? '---\n' : '') + pieces.join('');
        assert.deepStrictEqual(findFrontmatter(text), reference(text), JSON.stringify(text));
      }),
      { numRuns: 20_000 },
    );
  });
  it('gives syntax/frontmatter on the first line of a Markdown file without one', () => {
    const file = parseMarkdownFile('# Title\n');
    assert.deepStrictEqual(
      file.syntax.map((f) => [f.rule, f.range.start.line]),
      [['syntax/frontmatter', 0]],
    );
  });
});

describe('core: tree ranges', () => {
  it('maps flow and block list entries to their exact ranges, after a BOM', () => {
    const file = parseMarkdownFile(
      '\ufeff---\npolytoken:\n  tools: [file_read, glob]\n  tools_deny:\n    - grep\n---\n',
    );
    const flow = nodeAtPath(file.root, ['polytoken', 'tools', 1])!;
    const block = nodeAtPath(file.root, ['polytoken', 'tools_deny', 0])!;
    assert.strictEqual(rangeText(file.source, flow.start, flow.end), 'glob');
    assert.deepStrictEqual(file.source.range(flow.start, flow.end), {
      start: { line: 2, character: 21 },
      end: { line: 2, character: 25 },
    });
    assert.deepStrictEqual(file.source.range(block.start, block.end), {
      start: { line: 4, character: 6 },
      end: { line: 4, character: 10 },
    });
    assert.deepStrictEqual(pathOf(block), ['polytoken', 'tools_deny', 0]);
  });
  it('maps JSON nodes and finds the node at an offset', () => {
    const text = '{\n  "subagents": [ { "name": "x" } ]\n}';
    const file = parseJsonFile(text);
    const name = nodeAtPath(file.root, ['subagents', 0, 'name'])!;
    assert.strictEqual(rangeText(file.source, name.start, name.end), '"x"');
    const at = nodeAtOffset(file.root, text.indexOf('"name"') + 2)!;
    assert.ok(at.keyOf, 'the offset is inside a key');
    assert.deepStrictEqual(pathOf(at), ['subagents', 0, 'name']);
  });
  it('reports duplicate keys and broken YAML as syntax/yaml, broken JSON as syntax/json', () => {
    assert.ok(parseYamlFile('a: 1\na: 2\n').syntax.some((f) => f.rule === 'syntax/yaml'));
    assert.ok(parseYamlFile('a: [1,\n').syntax.length > 0);
    const json = parseJsonFile('{"a": }');
    assert.deepStrictEqual(
      json.syntax.map((f) => f.rule),
      ['syntax/json'],
    );
    assert.deepStrictEqual(
      parseJsonFile('').syntax.map((f) => f.rule),
      ['syntax/json'],
    );
  });
  it('bounds alias expansion (billion laughs) and reports it', () => {
    const levels = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 9; i++) {
      const prev = String.fromCharCode(96 + i);
      const name = String.fromCharCode(97 + i);
      levels.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(',')}]`);
    }
    const started = Date.now();
    const file = parseYamlFile(levels.join('\n'));
    assert.ok(Date.now() - started < 2000, 'alias expansion stays bounded');
    assert.ok(file.syntax.some((f) => /Aliases expand/.test(f.message)));
  });
});

describe('core: suppression comments', () => {
  it('silences the next line and the whole file', () => {
    const text =
      'a: 1\n# subagents-disable-next-line picasso/unknown-key, picasso/unknown-tool\nb: 2\n# subagents-disable syntax/yaml\n';
    const s = findSuppressions(new SourceText(text), [{ start: 0, end: text.length }]);
    assert.ok(isSuppressed(s, 'picasso/unknown-key', 2));
    assert.ok(isSuppressed(s, 'picasso/unknown-tool', 2));
    assert.ok(!isSuppressed(s, 'picasso/unknown-key', 0));
    assert.ok(!isSuppressed(s, 'picasso/name-format', 2));
    assert.ok(isSuppressed(s, 'syntax/yaml', 0));
  });
});

describe('core: file recognition', () => {
  const loaded = defaultLoadedConfig('/ws');
  it('recognizes each dialect by its default globs only', () => {
    assert.strictEqual(dialectOf('/ws/a/.polytoken/subagents/t.md', loaded, '/ws'), 'polytoken');
    assert.strictEqual(dialectOf('/ws/.picasso/agents/t.md', loaded, '/ws'), 'picasso');
    assert.strictEqual(dialectOf('/ws/apps/cli/agents/t.yml', loaded, '/ws'), 'picasso');
    assert.strictEqual(dialectOf('/ws/x/b.expert.json', loaded, '/ws'), 'profy');
    assert.strictEqual(dialectOf('/ws/README.md', loaded, '/ws'), undefined);
    assert.strictEqual(dialectOf('/ws/.polytoken/subagents/deep/t.md', loaded, '/ws'), undefined);
    assert.strictEqual(dialectOf('/ws/node_modules/p/.polytoken/subagents/t.md', loaded, '/ws'), undefined);
  });
  it('adds files.<dialect> globs and removes ignored paths', () => {
    const custom = parseConfig(
      'files:\n  polytoken: ["agents/*.md"]\nignore: ["test/**"]\n',
      '/ws/.subagents.yaml',
      '/ws',
    );
    assert.deepStrictEqual(custom.findings, []);
    assert.strictEqual(dialectOf('/ws/agents/t.md', custom, '/ws'), 'polytoken');
    assert.strictEqual(dialectOf('/ws/test/x.expert.json', custom, '/ws'), undefined);
  });
});

describe('core: configuration discovery', () => {
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'subagents-core-'));
    fs.mkdirSync(path.join(dir, 'a/b/c'), { recursive: true });
    fs.writeFileSync(path.join(dir, '.subagents.yaml'), 'mcp:\n  github: [create_issue]\n');
    fs.writeFileSync(path.join(dir, 'a/b/.subagents.yaml'), 'ignore: []\n');
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('uses the nearest file walking up; they do not merge', () => {
    const resolver = new ConfigResolver({ env: { HOME: dir } });
    const near = resolver.forFile(path.join(dir, 'a/b/c/x.md'));
    assert.ok(near.path?.endsWith('a/b/.subagents.yaml'));
    assert.deepStrictEqual(near.config.mcp, {});
    const top = resolver.forFile(path.join(dir, 'a/x.md'));
    assert.deepStrictEqual(top.config.mcp, { github: ['create_issue'] });
  });
  it('reports a broken configuration and carries on with the defaults', () => {
    const broken = parseConfig('mcp: [1, 2\n', '/ws/.subagents.yaml', '/ws');
    assert.ok(broken.findings.length > 0);
    assert.ok(broken.findings.every((f) => f.rule === 'config/invalid'));
    assert.deepStrictEqual(broken.config.mcp, {});
    const wrongType = parseConfig('polytoken:\n  facetTools: file_read\n', '/ws/.subagents.yaml', '/ws');
    assert.strictEqual(wrongType.findings[0].range.start.line, 1);
  });
  it('resolves the Polytoken global folder from the config, XDG and HOME', () => {
    assert.strictEqual(
      resolveGlobalDir(undefined, { env: { XDG_CONFIG_HOME: '/x', HOME: '/h' } }, '/ws'),
      '/x/polytoken/subagents',
    );
    assert.strictEqual(resolveGlobalDir(undefined, { env: { HOME: '/h' } }, '/ws'), '/h/.config/polytoken/subagents');
    assert.strictEqual(resolveGlobalDir('~/g', { env: { HOME: '/h' } }, '/ws'), '/h/g');
    assert.strictEqual(resolveGlobalDir('~', { env: { HOME: '/h' } }, '/ws'), '/h');
    // `~user` is not expanded: a folder of that name.
    assert.strictEqual(resolveGlobalDir('~user/g', { env: { HOME: '/h' } }, '/ws'), '/ws/~user/g');
    assert.strictEqual(resolveGlobalDir('rel', { env: { HOME: '/h' } }, '/ws'), '/ws/rel');
    assert.strictEqual(resolveGlobalDir('rel', { noGlobal: true }, '/ws'), undefined);
  });
});

describe('core: why a file cannot be read, and MCP tool names', () => {
  it('describeError: a short reason per Node error code, else the first line of the message', () => {
    const cases: [unknown, string][] = [
      [{ code: 'ENOENT' }, 'no such file or folder'],
      [{ code: 'EACCES' }, 'permission denied'],
      [{ code: 'EPERM' }, 'permission denied'],
      [{ code: 'EISDIR' }, 'is a folder'],
      [{ code: 'ELOOP' }, 'too many levels of symbolic links'],
      [{ code: 'ENOSPC' }, 'no space left on the device'],
      [{ code: 'EDQUOT' }, 'disk quota exceeded'],
      [{ code: 'EFBIG' }, 'file too large for the file system or the process size limit'],
      [{ code: 'EROFS' }, 'read-only file system'],
      [{ code: 'EIO', message: 'i/o error\nat somewhere' }, 'i/o error'],
      ['plain', 'plain'],
    ];
    for (const [error, reason] of cases) assert.strictEqual(describeError(error), reason, JSON.stringify(error));
  });

  it('parseMcpName: a server, or a server and a tool; no server name before a `__`', () => {
    assert.deepStrictEqual(parseMcpName('mcp__gh'), { server: 'gh' });
    assert.deepStrictEqual(parseMcpName('mcp__gh__list_issues'), { server: 'gh', tool: 'list_issues' });
    assert.strictEqual(parseMcpName('mcp____list_issues'), undefined);
    assert.strictEqual(parseMcpName('mcp__'), undefined);
    // A configured server whose name holds `__`: the longest that fits wins, in any order.
    for (const servers of [
      ['a', 'a__b'],
      ['a__b', 'a'],
    ]) {
      assert.deepStrictEqual(parseMcpName('mcp__a__b__c', servers), { server: 'a__b', tool: 'c' });
      assert.deepStrictEqual(parseMcpName('mcp__a__b', servers), { server: 'a__b' });
      assert.deepStrictEqual(parseMcpName('mcp__a__c', servers), { server: 'a', tool: 'c' });
    }
    assert.deepStrictEqual(parseMcpName('mcp__ab__c', ['a']), { server: 'ab', tool: 'c' });
  });

  it('nameFence: at most 40 names, then how many more', () => {
    const names = (n: number) => Array.from({ length: n }, (_, i) => `t${i}`);
    assert.strictEqual(nameFence([]), '*(nothing)*');
    assert.strictEqual(nameFence(names(2)), '`t0`, `t1`');
    assert.ok(nameFence(names(40)).endsWith('`t39`'));
    assert.ok(nameFence(names(43)).endsWith('`t39`, \u2026 (3 more)'));
    assert.strictEqual(nameFence(names(3), 2), '`t0`, `t1`, \u2026 (1 more)');
  });
});

describe('core: the resolution of a file the runtime cannot read', () => {
  const resolved = (path: string, text: string) =>
    resolveAnalysis(analyze({ text, path, config: defaultLoadedConfig('/w'), root: '/w' }), 'x')?.definitions;
  const line0 = (end: number) => ({ start: { line: 0, character: 0 }, end: { line: 0, character: end } });

  it("is one definition with the runtime's verdict, named by the partial parse or the file, granted nothing", () => {
    assert.deepStrictEqual(resolved('/w/apps/cli/agents/planner.yaml', 'name: planner\ninvocation: @planner\n'), [
      {
        name: 'planner',
        status: 'rejected',
        tools: [],
        unknown: [],
        removed: [],
        reasons: ['syntax/yaml'],
        range: line0(13),
      },
    ]);
    // Profy drops an Expert it cannot parse; the others reject it.
    assert.deepStrictEqual(resolved('/w/experts/book.expert.json', '{ "name": "book", '), [
      {
        name: 'book',
        status: 'dropped',
        tools: [],
        unknown: [],
        removed: [],
        reasons: ['syntax/json'],
        range: line0(18),
      },
    ]);
    assert.deepStrictEqual(resolved('/w/.polytoken/subagents/t.md', '---\nname: [\n---\n'), [
      { name: 't', status: 'rejected', tools: [], unknown: [], removed: [], reasons: ['syntax/yaml'], range: line0(3) },
    ]);
  });
});

/** The frontmatter by the plain definition: line by line (CRLF, CR or LF ends a line) to the first `---` or `...` line. */
function referenceFrontmatter(text: string): Frontmatter {
  const open = /^---[ \t]*(\r\n|\n|\r|$)/.exec(text);
  if (!open) return { kind: 'none' };
  const yamlStart = open[0].length;
  const line = /([^\r\n]*)(\r\n|\r|\n|$)/y;
  for (let at = yamlStart; at < text.length;) {
    line.lastIndex = at;
    const [whole, content] = line.exec(text)!;
    if (/^(---|\.\.\.)[ \t]*$/.test(content))
      return { kind: 'closed', yamlStart, yamlEnd: at, closeStart: at, bodyStart: at + whole.length };
    at += whole.length;
  }
  return { kind: 'unclosed', openEnd: 3, yamlStart };
}

describe('core: the frontmatter finder agrees with its plain definition', () => {
  it('on generated texts of fences, blanks and line ends of every kind', () => {
    const piece = fc.constantFrom('---', '...', '--', '-', '.', ' ', '\t', '\r', '\n', '\r\n', 'a', 'k: v');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 14 }), fc.boolean(), (pieces, opened) => {
        const text = (opened ? '---\n' : '') + pieces.join('');
        assert.deepStrictEqual(findFrontmatter(text), referenceFrontmatter(text), JSON.stringify(text));
      }),
      { numRuns: 3000 },
    );
  });
});
