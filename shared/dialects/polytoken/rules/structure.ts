import { posix } from 'path';
import type { FixPlan } from '../../../types';
import { getProperty, isObject, isString, pathOf, type AstNode } from '../../../text/tree';
import { describeProblem, validateNode } from '../../../schema/validate';
import { nearestName } from '../../../catalog/catalog';
import schema from '../../../../schemas/polytoken.schema.json';
import { POLYTOKEN_KEYS, TOP_LEVEL_KEYS } from '../constants';
import { findingOn, findingOnFirstLine, keyRenameData, unknownKeyFindings, visibleNode } from '../../common';
import { keyRenameFixes } from '../../../fixes/plans';
import { afterColonEdit, indentOf, lineStartOf, rangeOf, replaceValueEdit, writtenNull } from '../../../fixes/edits';
import {
  KIND_WORDS,
  readable,
  yamlString,
  type PolytokenContext,
  type PolytokenFix,
  type PolytokenRule,
  type PolytokenFinding,
} from '../util';

function frontmatterIsEmpty(ctx: PolytokenContext): boolean {
  const root = ctx.file.root;
  return ctx.file.frontmatter?.kind === 'closed' && (!root || root.kind === 'null');
}

/**
 * polytoken/missing-name and polytoken/name-mismatch. The runtime registers a definition
 * under its file name and refuses it when `name` says otherwise.
 */
export const nameRule: PolytokenRule = {
  ids: ['polytoken/missing-name', 'polytoken/name-mismatch'],
  check(ctx) {
    const stem = ctx.fileStem;
    if (frontmatterIsEmpty(ctx)) {
      if (ctx.file.syntax.length) return [];
      return [
        findingOnFirstLine(
          ctx,
          'polytoken/missing-name',
          `The frontmatter is empty, so Polytoken finds no \`name\` and will not load this subagent; add \`name: ${stem}\`, a \`description\` and a \`polytoken\` mapping.`,
          { expected: stem },
        ),
      ];
    }
    const model = readable(ctx);
    if (!model?.root) return [];
    const prop = getProperty(model.root, 'name');
    if (!prop) {
      return [
        findingOnFirstLine(
          ctx,
          'polytoken/missing-name',
          `The frontmatter has no \`name\`, so Polytoken will not load this subagent; add \`name: ${stem}\` (the file name without .md).`,
          {
            expected: stem,
          },
        ),
      ];
    }
    const value = prop.value;
    if (!isString(value) || value.value.trim() === '') {
      const what = isString(value) ? 'an empty string' : (KIND_WORDS[value.kind] ?? 'not a string');
      return [
        findingOn(
          ctx,
          'polytoken/missing-name',
          value,
          `\`name\` is ${what}, not a name, so Polytoken will not load this subagent; write \`name: ${stem}\` (the file name without .md).`,
          {
            expected: stem,
          },
        ),
      ];
    }
    if (value.value === stem) return [];
    return [
      findingOn(
        ctx,
        'polytoken/name-mismatch',
        value,
        `\`name\` is \`${value.value}\` but the file is ${stem}.md, and Polytoken refuses to load a definition whose name differs from its file name; rename one of them so both say \`${stem}\` or \`${value.value}\`.`,
        { replacement: yamlString(stem), expected: stem },
      ),
    ];
  },
  fixes: {
    'polytoken/missing-name': (req) => missingNameFixes(req),
    'polytoken/name-mismatch': (req) => {
      const { ctx } = req;
      const nameNode = ctx.model.nameNode;
      if (!nameNode) return [];
      const fixes: FixPlan[] = [
        {
          title: `Set name to \`${ctx.fileStem}\``,
          edits: [replaceValueEdit(ctx, nameNode.start, nameNode.end, ctx.fileStem)],
          preferred: true,
        },
      ];
      const name = ctx.model.name;
      if (name && !/[\\/:*?"<>|\u0000]/.test(name))
        fixes.push({
          title: `Rename the file to \`${name}.md\``,
          edits: [],
          rename: { newPath: posix.join(posix.dirname(ctx.path), `${name}.md`) },
        });
      return fixes;
    },
  },
};

function missingNameFixes(req: PolytokenFix): FixPlan[] {
  const { ctx } = req;
  const stem = ctx.fileStem;
  const title = `Set name to \`${stem}\``;
  const root = ctx.model.root;
  const prop = getProperty(root, 'name');
  if (prop && (prop.value.kind === 'array' || prop.value.kind === 'object') && !prop.value.flow) {
    // A block collection: the name goes right after the colon, in place of the whole block.
    const text = ctx.file.source.text;
    let end = prop.value.end;
    while (end > prop.value.start && /\s/.test(text[end - 1])) end--;
    const colon = text.indexOf(':', prop.keyNode.end) + 1;
    return [{ title, edits: [{ range: rangeOf(ctx, colon, end), newText: ` ${yamlString(stem)}` }], preferred: true }];
  }
  if (prop && prop.value.start !== prop.value.end) {
    return [{ title, edits: [replaceValueEdit(ctx, prop.value.start, prop.value.end, stem)], preferred: true }];
  }
  if (prop) return [{ title, edits: [afterColonEdit(ctx, prop.keyNode, ` ${yamlString(stem)}`)], preferred: true }];
  const add = `Add \`name: ${stem}\``;
  if (root?.flow) {
    // `{description: x}`: the name goes inside the braces; a line before them would break the YAML.
    const entry = `name: ${yamlString(stem)}${root.properties.length ? ', ' : ''}`;
    return [
      { title: add, edits: [{ range: rangeOf(ctx, root.start + 1, root.start + 1), newText: entry }], preferred: true },
    ];
  }
  const written = writtenNull(ctx);
  if (written) {
    // The frontmatter is `~`, `null`, or an anchor or tag with no value: the name takes its place (a line before it
    // would not be YAML).
    return [
      {
        title: add,
        edits: [{ range: rangeOf(ctx, written.start, written.end), newText: `name: ${yamlString(stem)}` }],
        preferred: true,
      },
    ];
  }
  const at = root ? root.start : ctx.file.yamlRegions[0]?.start;
  if (at === undefined) return [];
  const first = root?.properties[0];
  const text = ctx.file.source.text;
  const indent = first ? indentOf(text, first.keyNode.start) : '';
  const lineAt = first ? lineStartOf(text, first.keyNode.start) : at;
  return [
    {
      title: add,
      edits: [{ range: rangeOf(ctx, lineAt, lineAt), newText: `${indent}name: ${yamlString(stem)}\n` }],
      preferred: true,
    },
  ];
}

/** polytoken/invalid-value: the frontmatter against schemas/polytoken.schema.json. */
export const invalidValueRule: PolytokenRule = {
  ids: ['polytoken/invalid-value'],
  check(ctx) {
    const root = ctx.file.root;
    if (!root || root.kind === 'null' || ctx.model.broken) return [];
    if (!isObject(root)) {
      const what = KIND_WORDS[root.kind] ?? 'not a mapping';
      return [
        findingOn(
          ctx,
          'polytoken/invalid-value',
          root,
          `The frontmatter is ${what}, not a mapping of keys, so Polytoken cannot read a definition from it; write it as \`key: value\` lines (\`name\`, \`description\`, \`polytoken\`).`,
        ),
      ];
    }
    const out: PolytokenFinding[] = [];
    for (const problem of validateNode(schema, root)) {
      const path = pathOf(problem.node);
      // `name` belongs to polytoken/missing-name.
      if (path[0] === 'name' || (problem.keyword === 'required' && problem.params.missingProperty === 'name')) continue;
      out.push(
        findingOn(
          ctx,
          'polytoken/invalid-value',
          visibleNode(problem.node),
          `${describeProblem(problem).replace(/\.$/, '')}, so ${consequence(path)}`,
        ),
      );
    }
    return out;
  },
};

function consequence(path: (string | number)[]): string {
  if (path.length === 1 && path[0] === 'polytoken')
    return 'Polytoken cannot read any setting from it and the definition will not load as written; make it a mapping of the `polytoken` keys.';
  return 'Polytoken cannot read the definition with this value; write it with the type the key expects (hover the key for its shape).';
}

/** polytoken/unknown-key: keys outside the documented lists, with the nearest known key. */
export const unknownKeyRule: PolytokenRule = {
  ids: ['polytoken/unknown-key'],
  check(ctx) {
    const model = readable(ctx);
    if (!model?.root) return [];
    const unknownIn = (node: AstNode | undefined, known: readonly string[], where: string) =>
      unknownKeyFindings(
        node,
        known,
        (key) => nearestName(key, known, Math.max(2, Math.floor(key.length / 4))),
        (property, near) => {
          const { key, keyNode } = property;
          // Only at the top level: under `polytoken` these keys are known.
          if (!near && (POLYTOKEN_KEYS as readonly string[]).includes(key)) {
            return findingOn(
              ctx,
              'polytoken/unknown-key',
              keyNode,
              `\`${key}\` is a Polytoken setting but sits at the top level, where Polytoken does not look for it, so it has no effect; move it under the \`polytoken\` mapping.`,
              { moveTo: 'polytoken' },
            );
          }
          const hint = near
            ? `did you mean \`${near}\`?`
            : `the known keys ${where} are ${known.map((k) => `\`${k}\``).join(', ')}.`;
          return findingOn(
            ctx,
            'polytoken/unknown-key',
            keyNode,
            `\`${key}\` is not a key Polytoken knows ${where}, so it has no effect; ${near ? `rename it: ${hint}` : `remove it or fix it: ${hint}`}`,
            keyRenameData(property, near),
          );
        },
      );
    return [
      ...unknownIn(model.root, TOP_LEVEL_KEYS, 'at the top level'),
      ...unknownIn(model.poly, POLYTOKEN_KEYS, 'under `polytoken`'),
    ];
  },
  // `tool` → `tools` or `inherit_tool` → `inherit_tools` would grant tools: offered, not preferred.
  fixes: { 'polytoken/unknown-key': (req) => keyRenameFixes(req, ['tools', 'inherit_tools', 'allow_subagent_spawn']) },
};
