import * as assert from 'assert';
import fc from 'fast-check';
import { randomBytes } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { Diagnostic } from 'vscode-languageserver-types';
import { checkPaths } from '../../cli/batch/check-paths';
import { removeTree } from '../support/tree';

/**
 * `checkPaths` with a cache gives the reports a run without one gives, after any sequence
 * of edits: files added, removed, renamed inside (Polytoken shadowing, Picasso duplicate
 * roles), broken (a quick name the parse contradicts), and the configuration changed. FC_SEED=<n> replays a run.
 */
const seed = process.env.FC_SEED ? Number(process.env.FC_SEED) : undefined;
const NAMES = ['triage', 'helper', 'broken'];
const definition = (name: string) =>
  `---\nname: ${name}\ndescription: d\npolytoken:\n  tools: [file_read]\n---\nBody.\n`;
const TEXTS = [
  ...NAMES.map(definition),
  '---\ndescription: d\n  tools: [a, b]\nname: triage\n---\n', // quick name `triage`, parsed name: the file's
  '---\nname: [unclosed\n---\n',
  '---\nname: helper\npolytoken: { tools: [file_raed] }\n---\n',
];
const role = (name: string) =>
  `name: ${name}\ninvocation: "@${name}"\nmodel: m\ntools: [read_file]\nmax_steps: 3\nmax_depth: 0\n`;
const PLACES = ['p/.polytoken/subagents', 'q/.polytoken/subagents', 'vendor', 'p/apps/cli/agents', 'p/.picasso/agents'];
const CONFIGS = [
  'polytoken:\n  subagentDirs: [vendor]\n',
  'polytoken:\n  subagentDirs: [vendor]\nrules:\n  polytoken/shadowed: warning\n',
  'rules: {}\n',
];

/** A workspace state: which text each (place, file name) holds, and the configuration. */
const state = fc.record({
  files: fc.array(fc.tuple(fc.constantFrom(...PLACES), fc.constantFrom(...NAMES), fc.nat(TEXTS.length - 1)), {
    maxLength: 8,
  }),
  config: fc.nat(CONFIGS.length - 1),
});

function lay(root: string, s: { files: [string, string, number][]; config: number }): void {
  for (const entry of fs.readdirSync(root))
    if (entry !== 'cache') fs.rmSync(path.join(root, entry), { recursive: true, force: true });
  fs.writeFileSync(path.join(root, '.subagents.yaml'), CONFIGS[s.config]);
  for (const [place, name, text] of s.files) {
    fs.mkdirSync(path.join(root, place), { recursive: true });
    // Picasso roles: a role named after the file or after another one (duplicate roles of a project).
    if (place.endsWith('apps/cli/agents'))
      fs.writeFileSync(path.join(root, place, `${name}.yaml`), role(NAMES[text % NAMES.length]));
    else if (place.endsWith('.picasso/agents'))
      fs.writeFileSync(path.join(root, place, `${name}.md`), `---\n${role(NAMES[text % NAMES.length])}---\n`);
    else fs.writeFileSync(path.join(root, place, `${name}.md`), TEXTS[text]);
  }
}

describe('hardening: the check cache', function () {
  this.timeout(120_000);

  it('after any sequence of edits, a cached check reports what an uncached one does', () => {
    fc.assert(
      fc.property(fc.array(state, { minLength: 2, maxLength: 4 }), fc.boolean(), (states, workers) => {
        const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'subagents-cache-')));
        try {
          const cache = { file: path.join(root, 'cache', 'check.json'), checker: 'test', key: randomBytes(32) };
          // A reused report holds what the CLI prints of each diagnostic: its range, severity, rule and message.
          const printed = (f: { path: string; diagnostics: Diagnostic[] }) => [
            f.path,
            f.diagnostics.map(({ range, severity, code, message }) => ({ range, severity, code, message })),
          ];
          const run = (withCache: boolean) =>
            JSON.stringify(
              checkPaths([root], {
                cwd: root,
                noGlobal: true,
                keepAnalysis: false,
                workers: workers ? 1 : 0,
                ...(withCache ? { cache } : {}),
              }).files.map(printed),
            );
          for (const s of states) {
            lay(root, s);
            assert.strictEqual(run(true), run(false));
          }
          assert.strictEqual(run(true), run(false), 'a warm run too');
          return true;
        } finally {
          removeTree(root);
        }
      }),
      {
        numRuns: 60,
        seed,
        examples: [
          // A role of the same name appears beside an unchanged one (both become duplicates), then goes.
          [
            [
              { files: [['p/apps/cli/agents', 'triage', 0]], config: 0 },
              {
                files: [
                  ['p/apps/cli/agents', 'triage', 0],
                  ['p/.picasso/agents', 'helper', 0],
                ],
                config: 0,
              },
              { files: [['p/apps/cli/agents', 'triage', 0]], config: 0 },
            ],
            false,
          ],
          // A project definition appears with the name of an unchanged vendor one (shadowing).
          [
            [
              { files: [['vendor', 'helper', 1]], config: 0 },
              {
                files: [
                  ['vendor', 'helper', 1],
                  ['p/.polytoken/subagents', 'helper', 1],
                ],
                config: 0,
              },
            ],
            true,
          ],
        ],
      },
    );
  });
});
