// The FLOOR for `subagents check`: one process that finds the same definition files
// (a plain recursive walk, skipping node_modules and .git, the default path patterns),
// reads them and parses them with the same parsers: yaml `parseDocument` for a
// frontmatter block or a YAML file, jsonc-parser `parseTree` for JSON. Nothing else.
// Prints one JSON line: { files, ms }.
import * as fs from 'fs';
import * as path from 'path';
import { createRequire } from 'module';

const require = createRequire(import.meta.url);
const { parseDocument } = require('yaml');
const { parseTree } = require('jsonc-parser');

const root = path.resolve(process.argv[2]);
const start = performance.now();
const files = [];
const stack = [root];
while (stack.length) {
  const dir = stack.pop();
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name === '.git') continue;
    const full = dir + '/' + e.name;
    if (e.isDirectory()) stack.push(full);
    else if (e.isFile()) files.push(full);
  }
}
const isDefinition = (p) =>
  p.endsWith('.expert.json') ||
  /\/\.polytoken\/subagents\/[^/]+\.md$/.test(p) ||
  /\/\.picasso\/agents\/[^/]+\.md$/.test(p) ||
  /\/apps\/cli\/agents\/[^/]+\.ya?ml$/.test(p) ||
  p.endsWith('/.subagents.yaml');
let parsed = 0;
for (const file of files) {
  if (!isDefinition(file)) continue;
  const text = fs.readFileSync(file, 'utf8');
  if (file.endsWith('.json')) {
    parseTree(text, [], { disallowComments: true });
  } else if (file.endsWith('.md')) {
    const m = /^---\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/.exec(text);
    parseDocument(m ? m[1] : text, { uniqueKeys: true, strict: true });
  } else {
    parseDocument(text, { uniqueKeys: true, strict: true });
  }
  parsed++;
}
console.log(JSON.stringify({ files: parsed, ms: performance.now() - start }));
