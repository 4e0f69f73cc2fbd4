// npm run package:check: packages the extension as the marketplaces receive it (`vsce package`,
// after the production build) and fails on any warning vsce prints, and when the
// .vsix lacks a file the extension needs (the Node and the web builds, the schemas). CI and the
// release workflow (.github/workflows/release.yml) run it before anything is published.
import { spawnSync } from 'child_process';
import { existsSync, readFileSync } from 'fs';

/** The entry names of a zip file, from its central directory (no unzip needed). */
function zipEntries(file) {
  const zip = readFileSync(file);
  let end = zip.length - 22;
  while (end >= 0 && zip.readUInt32LE(end) !== 0x06054b50) end--;
  if (end < 0) throw new Error(`${file} is not a zip file`);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const names = [];
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error(`${file}: a broken central directory`);
    const nameLength = zip.readUInt16LE(at + 28);
    names.push(zip.toString('utf8', at + 46, at + 46 + nameLength));
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return names;
}

const out = process.argv[2] ?? 'subagents-tooling.vsix';
const vsce = spawnSync(
  'npx',
  ['--no-install', 'vsce', 'package', '--no-dependencies', '--readme-path', 'EXTENSION.md', '--out', out],
  {
    encoding: 'utf8',
  },
);
const printed = `${vsce.stdout}\n${vsce.stderr}`;
const warnings = printed.split('\n').filter((l) => /\bWARNING\b|\bwarn(ing)?:/i.test(l));
if (vsce.status !== 0 || !existsSync(out)) {
  console.error(printed);
  console.error(`vsce package failed (exit ${vsce.status})`);
  process.exit(1);
}
if (warnings.length) {
  console.error(warnings.join('\n'));
  console.error(`vsce package printed ${warnings.length} warning(s)`);
  process.exit(1);
}
const listed = zipEntries(out);
const needed = [
  'extension/package.json',
  'extension/dist/extension.js',
  'extension/dist/server.js',
  'extension/dist/web/extension.js',
  'extension/dist/web/server.js',
  'extension/schemas/subagents-config.schema.json',
  'extension/snippets/subagents-markdown.json',
  'extension/snippets/subagents-yaml.json',
];
const missing = needed.filter((f) => !listed.includes(f));
if (missing.length) {
  console.error(`the package lacks ${missing.join(', ')}`);
  process.exit(1);
}
const maps = listed.filter((f) => f.endsWith('.map'));
if (maps.length) {
  console.error(`the package holds source maps: ${maps.join(', ')}`);
  process.exit(1);
}
console.log(`${out}: no vsce warning; ${listed.filter(Boolean).length} files, the Node and the web builds included`);
