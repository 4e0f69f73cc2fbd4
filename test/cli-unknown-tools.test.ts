/**
 * Tools the catalog does not know, through the real CLI: they stay in `tools` (the catalog may be
 * incomplete) but every view of a tool set marks them and counts them apart: `resolve` JSON
 * (`unknown`, sorted and unique) and text, SARIF (the result's `unknownTool`), `diff` ("granted
 * (unknown tool)", "granted 1 tool + 1 unknown").
 */
import { strict as assert } from 'assert';
import { git, Temps, VALID_POLYTOKEN } from './support/cli';

const temps = new Temps();
after(() => temps.remove());

const FILE = '.polytoken/subagents/reviewer.md';
const WITH_UNKNOWN = VALID_POLYTOKEN('reviewer', '[file_read, grpe, zzz_tool, grpe]');

describe('unknown tools are marked and counted apart (CLI)', function () {
  this.timeout(60000);

  it('resolve JSON lists them under `unknown`, sorted and unique, and keeps them in `tools`', () => {
    const ws = temps.workspace({ [FILE]: WITH_UNKNOWN });
    const r = temps.run(['resolve', FILE, '-f', 'json'], ws);
    assert.equal(r.code, 0, r.stderr);
    const [d] = JSON.parse(r.stdout).definitions;
    assert.deepEqual(d.tools, ['exit_tool', 'file_read', 'grpe', 'zzz_tool']);
    assert.deepEqual(d.unknown, ['grpe', 'zzz_tool']);
  });

  it('a definition whose tools are all known has an empty `unknown`', () => {
    const ws = temps.workspace({ [FILE]: VALID_POLYTOKEN('reviewer') });
    const [d] = JSON.parse(temps.run(['resolve', FILE, '-f', 'json'], ws).stdout).definitions;
    assert.deepEqual(d.unknown, []);
  });

  it('a tool declared under `tools.polytoken` in .subagents.yaml is known', () => {
    const ws = temps.workspace({ [FILE]: WITH_UNKNOWN, '.subagents.yaml': 'tools:\n  polytoken: [grpe]\n' });
    const [d] = JSON.parse(temps.run(['resolve', FILE, '-f', 'json'], ws).stdout).definitions;
    assert.deepEqual(d.unknown, ['zzz_tool']);
  });

  it('resolve text marks each unknown entry and names them on their own line', () => {
    const ws = temps.workspace({ [FILE]: WITH_UNKNOWN });
    const r = temps.run(['resolve', FILE], ws);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /tools: +exit_tool, file_read, grpe \(unknown\), zzz_tool \(unknown\)\n/);
    assert.match(r.stdout, /unknown: +grpe, zzz_tool \(not in the catalog/);
  });

  it('SARIF results of the unknown-tool rule carry the tool as written', () => {
    const ws = temps.workspace({ [FILE]: WITH_UNKNOWN });
    const r = temps.run(['check', '-f', 'sarif'], ws);
    const results = JSON.parse(r.stdout).runs[0].results as { ruleId: string; properties: any }[];
    const unknown = results.filter((x) => x.ruleId === 'polytoken/unknown-tool');
    assert.deepEqual(unknown.map((x) => x.properties.unknownTool).sort(), ['grpe', 'grpe', 'zzz_tool']);
    assert.ok(results.every((x) => x.ruleId === 'polytoken/unknown-tool' || !('unknownTool' in x.properties)));
  });

  it('diff marks a granted unknown tool and counts it apart', () => {
    const repo = temps.dir('subagents-unknown-diff-');
    git(repo, 'init', '-q');
    temps.workspace({ [FILE]: VALID_POLYTOKEN('reviewer', '[file_read]') }, repo);
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'one');
    temps.workspace({ [FILE]: VALID_POLYTOKEN('reviewer', '[file_read, grep, grpe]') }, repo);
    const r = temps.run(['diff', 'HEAD'], repo);
    assert.match(r.stdout, /granted 1 tool \+ 1 unknown/);
    assert.match(r.stdout, /\+ grpe +granted \(unknown tool\) by /);
    assert.match(r.stdout, /\+ grep +granted by /);
    const json = JSON.parse(temps.run(['diff', 'HEAD', '-f', 'json'], repo).stdout);
    const granted = json.changes[0].granted as { tool: string; unknown?: boolean }[];
    assert.deepEqual(
      granted.map((g) => [g.tool, g.unknown === true]),
      [
        ['grep', false],
        ['grpe', true],
      ],
    );
  });
});
