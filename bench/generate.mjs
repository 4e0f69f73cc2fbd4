// Generates a benchmark workspace of N subagent definitions (all three dialects, in their
// the default paths of docs/runtimes/), with a realistic share of mistakes, noise files the walker must pass
// over, a node_modules folder that must be skipped, and `.subagents.yaml` files.
// Deterministic for a given N and seed.
import * as fs from 'fs';
import * as path from 'path';

/** mulberry32: a small seeded PRNG. */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const POLY_TOOLS = [
  'file_read',
  'glob',
  'grep',
  'message_subagent',
  'deploy',
  'shell',
  'mcp__github__create_issue',
  'mcp__github',
];
const PICASSO_TOOLS = [
  'read_file',
  'grep',
  'glob',
  'find_symbol',
  'query_memory',
  'write_memory',
  'create_file',
  'edit_file',
  'run_tests',
];
const PROFY_TOOLS = ['read', 'grep', 'glob', 'web_search', 'mcp__ledger__post_entry', 'mcp__ledger__get_entry'];
const WORDS =
  'review triage lint plan audit search index deploy migrate summarize translate test refactor document release monitor'.split(
    ' ',
  );

const CONFIG = `# Benchmark workspace configuration
tools:
  polytoken:
    - deploy
    - { name: shell, description: Runs a command., tags: [exec] }
  picasso: [run_tests]
  profy: [web_search]
mcp:
  github: [create_issue, list_issues]
  ledger: [post_entry, get_entry]
polytoken:
  facetTools: [file_read, shell]
  subagentDirs: [vendor/agents]
profy:
  builtinSubagents: [general]
rules:
  polytoken/empty-skills-allow: off
`;

function pick(rand, list, n) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(list[Math.floor(rand() * list.length)]);
  return [...new Set(out)];
}

const yamlList = (items, indent) => items.map((t) => `${indent}- ${t}`).join('\n');

function polytokenFile(rand, name, mistake) {
  let tools = pick(rand, POLY_TOOLS, 2 + Math.floor(rand() * 4));
  let deny = rand() < 0.3 ? ['grep'] : [];
  let fmName = name;
  let extra = '';
  let body = `You are the ${name.replace(/-/g, ' ')} subagent.\n\n{% if task %}\nWork on: {{ task }}\n{% endif %}\n\n## Steps\n\n1. Read the relevant files.\n2. Report what you found with \`exit_tool\`.\n3. Keep progress updates short.\n\n{# internal note #}\nFinish with a summary of {{ summary | default("the work") }}.\n`;
  switch (mistake) {
    case 'name':
      fmName = name + '-x';
      break;
    case 'tool':
      tools.push('file_raed');
      break;
    case 'key':
      extra = '  tool_deny: [grep]\n';
      break;
    case 'exit':
      tools.push('exit_tool');
      break;
    case 'deny':
      deny.push('job_status');
      break;
    case 'template':
      body += '\n{% for x in items %}\n{{ x }\n';
      break;
    case 'yaml':
      extra = '  model: [unclosed\n';
      break;
  }
  return `---
name: ${fmName}
description: ${WORDS[Math.floor(rand() * WORDS.length)]} things for the team; used when the parent needs a focused ${name}.
polytoken:
  model: fast-model
  fallback_models:
    - big-model
  tools:
${yamlList(tools, '    ')}
${deny.length ? `  tools_deny:\n${yamlList(deny, '    ')}\n` : ''}  undeferred_tools: [${tools
    .filter((t) => !t.startsWith('mcp__') && t !== 'exit_tool' && !deny.includes(t))
    .slice(0, 1)
    .join(', ')}]
  autonomous_hint: Work without asking questions.
  inherit_tools: ${rand() < 0.3}
  allow_subagent_spawn: false
${extra}  exit_tool_schema:
    type: object
    properties:
      status:
        type: string
        enum: [success, failure${mistake === 'status' ? ', maybe' : ''}]
      summary:
        type: string
    required: [status]
---
${body}`;
}

function picassoRole(rand, name, mistake, markdown) {
  let tools = pick(rand, PICASSO_TOOLS, 2 + Math.floor(rand() * 4));
  let deny = rand() < 0.3 ? ['delete_file'] : [];
  let memory = ['none', 'read-only', 'session'][Math.floor(rand() * 3)];
  let invocation = `'@${name}'`;
  let roleName = name;
  let maxSteps = 20 + Math.floor(rand() * 30);
  let extra = '';
  switch (mistake) {
    case 'name':
      roleName = name.replace(/_/g, '-');
      break;
    case 'invocation':
      invocation = `'@${name}2'`;
      break;
    case 'overlap':
      deny.push(tools[0]);
      break;
    case 'memory':
      memory = 'forever';
      break;
    case 'steps':
      maxSteps = 0;
      break;
    case 'key':
      extra = 'max_stesp: 3\n';
      break;
    case 'yaml':
      extra = 'tools: [dup]\n';
      break;
  }
  if (memory === 'none') tools = tools.filter((t) => t !== 'query_memory' && t !== 'write_memory');
  if (memory === 'read-only') tools = tools.filter((t) => t !== 'write_memory');
  const yaml = `name: ${roleName}
invocation: ${invocation}
model: balanced
description: Handles ${name.replace(/_/g, ' ')} requests.
when_to_use: When the user asks for ${WORDS[Math.floor(rand() * WORDS.length)]}.
tools:
${yamlList(tools, '  ')}
${deny.length ? `deny:\n${yamlList(deny, '  ')}\n` : ''}max_steps: ${maxSteps}
max_depth: ${Math.floor(rand() * 3)}
memory: ${memory}
hooks:
  skip: [pre_commit]
output_schema:
  type: object
  properties:
    result: { type: string }
system_prompt: |
  You are ${name}. Do the task step by step and keep answers short.
  Never edit files outside the workspace.
${extra}`;
  return markdown ? `---\n${yaml}---\n` : yaml;
}

function profyExpert(rand, name, mistake) {
  const count = 2 + Math.floor(rand() * 3);
  const mainTools = pick(rand, PROFY_TOOLS, 4);
  const subagents = [];
  for (let i = 0; i < count; i++) {
    subagents.push({
      name: `${name}_helper_${i}`,
      description: `Helps ${name} with part ${i}.`,
      system_prompt: `You help the ${name} expert. Keep to part ${i}.`,
      tools: pick(rand, mainTools, 2).map((t) => (t.startsWith('mcp__') && rand() < 0.5 ? 'mcp__ledger__*' : t)),
      model: 'some-model',
    });
  }
  const expert = {
    name,
    description: `The ${name} expert.`,
    delegatable: true,
    delegationBrief: `Accepts ${name} tasks and returns a short report.`,
    delegationPolicy: 'none',
    tools: mainTools,
    subagents,
  };
  switch (mistake) {
    case 'reserved':
      subagents[0].name = 'Task';
      break;
    case 'missing':
      delete subagents[1].system_prompt;
      break;
    case 'dup':
      subagents[1].name = subagents[0].name;
      break;
    case 'tool':
      subagents[0].tools = ['reed'];
      break;
    case 'key':
      expert.delegationBreif = 'typo';
      break;
    case 'brief':
      delete expert.delegationBrief;
      break;
    case 'json':
      return JSON.stringify(expert, null, 2).replace(/,\n/, '\n');
  }
  return JSON.stringify(expert, null, 2) + '\n';
}

const MISTAKES = {
  polytoken: ['name', 'tool', 'key', 'exit', 'deny', 'template', 'yaml', 'status'],
  picasso: ['name', 'invocation', 'overlap', 'memory', 'steps', 'key', 'yaml'],
  profy: ['reserved', 'missing', 'dup', 'tool', 'key', 'brief', 'json'],
};

/** Writes the workspace; returns counts. `mistakeRate`: share of files with one mistake. */
export function generateWorkspace(root, total, { seed = 42, mistakeRate = 0.25, perProject = 100 } = {}) {
  const rand = prng(seed);
  fs.rmSync(root, { recursive: true, force: true });
  fs.mkdirSync(root, { recursive: true });
  fs.writeFileSync(path.join(root, '.subagents.yaml'), CONFIG);
  const counts = { polytoken: 0, picasso: 0, profy: 0, noise: 0 };
  const mkdir = new Set();
  const write = (file, text) => {
    const dir = path.dirname(file);
    if (!mkdir.has(dir)) {
      fs.mkdirSync(dir, { recursive: true });
      mkdir.add(dir);
    }
    fs.writeFileSync(file, text);
  };
  // Definitions of the shared discovery folder (shadowed by projects' definitions of the same name).
  for (let i = 0; i < 10; i++)
    write(path.join(root, 'vendor/agents', `agent-${i}.md`), polytokenFile(rand, `agent-${i}`, undefined));
  let made = 0;
  for (let p = 0; made < total; p++) {
    const proj = path.join(root, 'projects', `p${String(p).padStart(4, '0')}`);
    if (p % 10 === 3)
      write(
        path.join(proj, '.subagents.yaml'),
        CONFIG.replace('subagentDirs: [vendor/agents]', 'subagentDirs: []') + (p % 20 === 3 ? 'rules: {broken\n' : ''),
      );
    write(path.join(proj, 'README.md'), `# Project ${p}\n\nNot a definition.\n`);
    write(path.join(proj, 'src', 'index.ts'), `export const project = ${p};\n`);
    write(path.join(proj, 'node_modules', 'dep', '.polytoken', 'subagents', 'skipped.md'), '---\nname: wrong\n---\n');
    counts.noise += 3;
    for (let k = 0; k < perProject && made < total; k++, made++) {
      const r = rand();
      const mistakeFor = (d) =>
        rand() < mistakeRate ? MISTAKES[d][Math.floor(rand() * MISTAKES[d].length)] : undefined;
      if (r < 0.4) {
        const name = k < 10 && p % 4 === 0 ? `agent-${k}` : `${WORDS[k % WORDS.length]}-${p}-${k}`;
        write(
          path.join(proj, '.polytoken', 'subagents', `${name}.md`),
          polytokenFile(rand, name, mistakeFor('polytoken')),
        );
        counts.polytoken++;
      } else if (r < 0.7) {
        const name = `${WORDS[k % WORDS.length]}_${p}_${k}`;
        const md = rand() < 0.5;
        const file = md
          ? path.join(proj, '.picasso', 'agents', `${name}.md`)
          : path.join(proj, 'apps', 'cli', 'agents', `${name}.yaml`);
        write(file, picassoRole(rand, name, mistakeFor('picasso'), md));
        counts.picasso++;
      } else {
        const name = `${WORDS[k % WORDS.length]}_${p}_${k}`;
        write(path.join(proj, 'experts', `${name}.expert.json`), profyExpert(rand, name, mistakeFor('profy')));
        counts.profy++;
      }
    }
  }
  return counts;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [dir, n] = process.argv.slice(2);
  if (!dir || !n) {
    console.error('usage: node bench/generate.mjs DIR COUNT');
    process.exit(2);
  }
  console.log(generateWorkspace(path.resolve(dir), Number(n)));
}
