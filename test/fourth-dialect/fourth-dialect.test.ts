/**
 * Proof that a runtime is one plug-in: Quill (./quill.ts), which no product file names, is
 * registered through the public face and gets diagnostics, hover, completion, document
 * symbols, a workspace-view entry, its configuration keys, `subagents check` output and
 * Fix all, like the built-in dialects. The CLI runs in this process (cli/run.ts with a captured
 * Io): a separate process could not see a dialect registered here.
 */
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import {
  analyze,
  completions,
  defaultLoadedConfig,
  definitionSnippets,
  documentSymbols,
  fixAll,
  hover,
  kindOf,
  parseConfig,
  registerDialect,
  resolveAnalysis,
  ruleMeta,
  RULES,
  skeletonText,
  subagentSkeleton,
  summarizeFile,
  workspaceRuntimes,
} from '../../shared';
import { main } from '../../cli/run';
import type { Io } from '../../cli/common';
import { withTree } from '../support/tree';
import { ROOT, sourceFiles } from '../support/sources';
import { quill } from './quill';
import { expandSnippet } from '../support/snippets';

const WS = '/ws';
const PATH = `${WS}/.quill/agents/scribe.yaml`;
const TEXT = 'name: scribe\ndescription: Writes notes.\ntools: [scribble, erase, scribble]\n';
const config = defaultLoadedConfig(WS);
const check = (text = TEXT, loaded = config) => analyze({ text, path: PATH, config: loaded, root: WS });

/** Runs the CLI in this process, as `subagents <args>` in `cwd`. */
function cli(args: string[], cwd: string): { code: number | undefined; out: string; err: string } {
  let out = '';
  let err = '';
  const io: Io = {
    cwd,
    env: { ...process.env, NO_COLOR: '1' },
    out: (t) => (out += t),
    err: (t) => (err += t),
    version: 'test',
  };
  const code = main(args, io);
  return { code, out, err };
}

describe('a fourth dialect, registered at run time', () => {
  let registration: { dispose(): void };
  before(() => (registration = registerDialect(quill)));
  after(() => registration.dispose());

  it('recognizes its files by its own glob and reports its own rule, with its metadata', () => {
    assert.strictEqual(kindOf({ path: PATH, config, root: WS }), 'quill');
    const analysis = check();
    assert.deepStrictEqual(
      analysis.diagnostics.map((d) => [d.code, d.range.start.character, d.range.end.character, d.severity]),
      [['quill/duplicate-tool', 25, 33, 1]],
    );
    assert.strictEqual(ruleMeta('quill/duplicate-tool')?.group, 'quill');
    assert.ok(RULES.some((r) => r.id === 'quill/duplicate-tool'));
    assert.deepStrictEqual(resolveAnalysis(analysis, PATH)?.definitions[0].reasons, ['quill/duplicate-tool']);
  });

  it('hover: its keys from its key table, its tools from its catalog', () => {
    const analysis = check();
    const text = (line: number, character: number) => {
      const h = hover(analysis, { line, character });
      return h && typeof h.contents === 'object' && 'value' in h.contents ? h.contents.value : '';
    };
    assert.match(text(1, 3), /^\*\*description\*\* — string/);
    assert.match(text(1, 3), /\[Quill key reference\]\(.*\/docs\/keys\/quill\.md#description\)/);
    assert.match(text(2, 10), /^\*\*scribble\*\* — Quill tool \(built-in\)\n\nWrites a note\.\n\nBuilt into: Quill$/);
  });

  it('completion: its keys not written yet, its catalog in `tools`', () => {
    const analysis = check('name: scribe\ntools: [scribble, ]\n\n');
    assert.deepStrictEqual(
      completions(analysis, { line: 2, character: 0 }).map((i) => i.label),
      ['description'],
    );
    assert.deepStrictEqual(
      completions(analysis, { line: 1, character: 18 }).map((i) => i.label),
      ['erase'],
    );
  });

  it('document symbols: the agent, with its label and keys', () => {
    const [agent] = documentSymbols(check());
    assert.strictEqual(agent.name, 'scribe');
    assert.strictEqual(agent.detail, 'Quill agent');
    assert.deepStrictEqual(
      agent.children?.map((c) => c.name),
      ['name', 'description', 'tools'],
    );
  });

  it('the workspace view: its entry, and its runtime after the built-in ones', () => {
    const [entry] = summarizeFile(check(), `file://${PATH}`, { folder: WS });
    assert.deepStrictEqual(
      [entry.dialect, entry.name, entry.group, entry.status, entry.tools, entry.reasons, entry.problems.errors],
      ['quill', 'scribe', '.quill/agents', 'rejected', 2, ['quill/duplicate-tool'], 1],
    );
    assert.deepStrictEqual(workspaceRuntimes().at(-1), {
      id: 'quill',
      title: 'Quill',
      icon: 'edit',
      tooltip: 'Quill agents, by folder',
      groupKind: 'folder',
    });
  });

  it('Fix all removes the duplicate; the agent then loads', () => {
    const result = fixAll({ text: TEXT, path: PATH, config, root: WS });
    assert.strictEqual(result.text, 'name: scribe\ndescription: Writes notes.\ntools: [scribble, erase]\n');
    assert.deepStrictEqual(
      result.applied.map((a) => a.rule),
      ['quill/duplicate-tool'],
    );
    assert.strictEqual(resolveAnalysis(result.analysis, PATH)?.definitions[0].status, 'loads');
  });

  it('its configuration: files.quill, tools.quill, rules and its own section, validated without a precompiled validator', () => {
    const loaded = parseConfig(
      'files:\n  quill: [notes/*.yaml]\ntools:\n  quill: [ink]\nquill:\n  inkTools: [ink]\nrules:\n  quill/duplicate-tool: off\n',
      `${WS}/.subagents.yaml`,
      WS,
    );
    assert.deepStrictEqual(loaded.findings, []);
    assert.strictEqual(kindOf({ path: `${WS}/notes/x.yaml`, config: loaded, root: WS }), 'quill');
    const analysis = check(TEXT.replace('erase, scribble', 'ink'), loaded);
    assert.deepStrictEqual(analysis.diagnostics, []);
    assert.deepStrictEqual(resolveAnalysis(analysis, PATH)?.definitions[0].tools, ['ink', 'scribble']);
    const bad = parseConfig('quill:\n  bogus: 1\n', `${WS}/.subagents.yaml`, WS).findings;
    assert.deepStrictEqual(
      bad.map((f) => f.rule),
      ['config/invalid'],
    );
    assert.match(bad[0].message, /`bogus` is not a configuration key under `quill`/);
  });

  it('`subagents check` and `subagents rules` report it; `check --fix` fixes it', () => {
    withTree({ '.quill/agents/scribe.yaml': TEXT, 'notes.txt': 'not a definition' }, (dir) => {
      const run = cli(['check', '.', '--format', 'json', '--no-global'], dir);
      assert.strictEqual(run.code, 1, run.err);
      const report = JSON.parse(run.out) as {
        files: { path: string; dialect: string; diagnostics: { rule: string }[] }[];
      };
      assert.deepStrictEqual(
        report.files.map((f) => [f.path, f.dialect, f.diagnostics.map((d) => d.rule)]),
        [['.quill/agents/scribe.yaml', 'quill', ['quill/duplicate-tool']]],
      );
      const rules = JSON.parse(cli(['rules', '--format', 'json'], dir).out) as { rules: { id: string }[] };
      assert.strictEqual(rules.rules.at(-7)?.id, 'quill/duplicate-tool');
      const help = cli(['--help'], dir).out;
      assert.match(help, /checks Polytoken, Profy, Picasso and Quill subagent definition files/);
      assert.match(help, /^ {2}Quill {6}\*\*\/\.quill\/agents\/\*\.yaml$/m);
      assert.strictEqual(cli(['check', '.', '--fix', '--no-global'], dir).code, 0);
      assert.strictEqual(
        fs.readFileSync(path.join(dir, '.quill/agents/scribe.yaml'), 'utf8'),
        'name: scribe\ndescription: Writes notes.\ntools: [scribble, erase]\n',
      );
    });
    // Its near misses: a check that finds nothing names the file and its globs.
    withTree({ 'team/.quill/agents/scribe.yml': TEXT }, (dir) => {
      const run = cli(['check', 'team', '--no-global'], dir);
      assert.strictEqual(run.code, 2);
      assert.match(
        run.err,
        /team\/\.quill\/agents\/scribe\.yml looks like a Quill agent, but Quill reads only \*\*\/\.quill\/agents\/\*\.yaml;/,
      );
    });
  });

  it('its skeleton, as text, is an agent it loads', () => {
    const text = skeletonText('quill', 'scribe')!;
    assert.strictEqual(text, 'name: scribe\ndescription: what it writes\ntools: [scribble]\n');
    assert.strictEqual(resolveAnalysis(check(text), PATH)?.definitions[0].status, 'loads');
    // The MCP server's new-subagent prompt: without a newDefinition of its own, the skeleton at its first glob.
    const whole = subagentSkeleton('quill', 'scribe', 'writes');
    assert.deepStrictEqual(whole && { path: whole.path, language: whole.language, text: whole.text }, {
      path: '.quill/agents/scribe.yaml',
      language: 'yaml',
      text,
    });
  });

  it('its snippet: derived from its skeleton, offered at its glob, and an agent it loads', () => {
    const yaml = definitionSnippets().find((f) => f.language === 'subagents-yaml');
    const snippet = yaml?.snippets['New Quill agent'];
    assert.ok(snippet, 'a snippet for the YAML definition language');
    assert.deepStrictEqual(snippet.include, ['**/.quill/agents/*.yaml']);
    const text = expandSnippet(snippet, PATH);
    assert.strictEqual(text, 'name: scribe\ndescription: what it writes\ntools: [scribble]\n');
    assert.strictEqual(resolveAnalysis(check(text), PATH)?.definitions[0].status, 'loads');
  });
});

describe('registering and disposing of a dialect', () => {
  it('refuses a taken or reserved id and rule ids outside its group', () => {
    assert.throws(() => registerDialect({ ...quill, id: 'polytoken' } as never), /already registered/);
    assert.throws(() => registerDialect({ ...quill, id: 'config' } as never), /reserved/);
    assert.throws(
      () => registerDialect({ ...quill, id: 'ink' } as never),
      /`quill\/duplicate-tool` is not in its group/,
    );
  });

  it('disposed of, its files, rules and configuration keys are gone again', () => {
    registerDialect(quill).dispose();
    assert.strictEqual(kindOf({ path: PATH, config, root: WS }), undefined);
    assert.ok(!RULES.some((r) => r.group === 'quill'));
    assert.match(
      parseConfig('quill:\n  inkTools: []\n', `${WS}/.subagents.yaml`, WS).findings[0]?.message ?? '',
      /`quill` is not a configuration key at the top level/,
    );
  });

  it('no product file names it: everything it gets, it gets through its module', () => {
    const named = ['shared', 'server', 'cli', 'client']
      .flatMap(sourceFiles)
      .filter((f) => /quill/i.test(fs.readFileSync(path.join(ROOT, f), 'utf8')));
    assert.deepStrictEqual(named, []);
  });
});
