import type { Rule, RuleContext } from '../../../engine';
import type { Finding } from '../../../types';
import { getProperty, isObject, isString, pathOf, type AstNode } from '../../../text/tree';
import { describeProblem, validateNode } from '../../../schema/validate';
import { nearestName } from '../../../catalog/catalog';
import schema from '../../../../schemas/polytoken.schema.json';
import { POLYTOKEN_KEYS, TOP_LEVEL_KEYS } from '../constants';
import { renameOrRemove, unknownKeyFindings, visibleNode } from '../../common';
import { at, definitionOf, yamlIsBroken } from '../util';

const KIND_WORDS: Record<string, string> = {
  array: 'a list',
  string: 'a string',
  number: 'a number',
  boolean: 'a boolean',
  null: 'empty',
  unknown: 'not a plain value',
};

/** The file stem as a YAML scalar that reads back as that string (`123` and `true` need quotes). */
export function yamlString(value: string): string {
  const plain = /^[A-Za-z_][A-Za-z0-9_.-]*$/.test(value) && !/^(true|false|null|yes|no|on|off|y|n)$/i.test(value);
  return plain ? value : JSON.stringify(value);
}

function frontmatterIsEmpty(ctx: RuleContext): boolean {
  const root = ctx.file.root;
  return ctx.file.frontmatter?.kind === 'closed' && (!root || root.kind === 'null');
}

/**
 * polytoken/missing-name, polytoken/name-mismatch and the frontmatter's shape: a root
 * that is not a mapping is one polytoken/invalid-value (or missing-name when empty).
 */
export const nameRule: Rule = {
  ids: ['polytoken/missing-name', 'polytoken/name-mismatch'],
  check(ctx) {
    const out: Finding[] = [];
    if (frontmatterIsEmpty(ctx)) {
      if (ctx.file.syntax.length) return out;
      out.push({
        rule: 'polytoken/missing-name',
        range: ctx.file.source.firstLine(),
        message: `The frontmatter is empty, so Polytoken finds no \`name\` and will not load this subagent; add \`name: ${ctx.fileStem}\`, a \`description\` and a \`polytoken\` mapping.`,
        data: { expected: ctx.fileStem },
      });
      return out;
    }
    const def = definitionOf(ctx);
    if (!def) return out;
    const prop = getProperty(def.root, 'name');
    if (!prop) {
      out.push({
        rule: 'polytoken/missing-name',
        range: ctx.file.source.firstLine(),
        message: `The frontmatter has no \`name\`, so Polytoken will not load this subagent; add \`name: ${ctx.fileStem}\` (the file name without .md).`,
        data: { expected: ctx.fileStem },
      });
      return out;
    }
    const value = prop.value;
    if (!isString(value) || value.value.trim() === '') {
      const what = isString(value) ? 'an empty string' : KIND_WORDS[value.kind] ?? 'not a string';
      const node = visibleNode(value);
      out.push(
        at(ctx, 'polytoken/missing-name', node, `\`name\` is ${what}, not a name, so Polytoken will not load this subagent; write \`name: ${ctx.fileStem}\` (the file name without .md).`, {
          expected: ctx.fileStem,
          ...(node === value ? { replacement: yamlString(ctx.fileStem) } : {}),
        }),
      );
      return out;
    }
    if (value.value !== ctx.fileStem) {
      out.push(
        at(
          ctx,
          'polytoken/name-mismatch',
          value,
          `\`name\` is \`${value.value}\` but the file is ${ctx.fileStem}.md, and Polytoken refuses to load a definition whose name differs from its file name; rename one of them so both say \`${ctx.fileStem}\` or \`${value.value}\`.`,
          { replacement: yamlString(ctx.fileStem), expected: ctx.fileStem },
        ),
      );
    }
    return out;
  },
};

/** polytoken/invalid-value: the frontmatter against schemas/polytoken.schema.json. */
export const invalidValueRule: Rule = {
  ids: ['polytoken/invalid-value'],
  check(ctx) {
    const root = ctx.file.root;
    if (!root || root.kind === 'null' || yamlIsBroken(ctx)) return [];
    if (!isObject(root)) {
      const what = KIND_WORDS[root.kind] ?? 'not a mapping';
      return [
        at(
          ctx,
          'polytoken/invalid-value',
          root,
          `The frontmatter is ${what}, not a mapping of keys, so Polytoken cannot read a definition from it; write it as \`key: value\` lines (\`name\`, \`description\`, \`polytoken\`).`,
        ),
      ];
    }
    const out: Finding[] = [];
    for (const problem of validateNode(schema, root)) {
      const path = pathOf(problem.node);
      // `name` belongs to polytoken/missing-name.
      if (path[0] === 'name' || (problem.keyword === 'required' && problem.params.missingProperty === 'name')) continue;
      const node = visibleNode(problem.node);
      out.push(at(ctx, 'polytoken/invalid-value', node, `${describeProblem(problem).replace(/\.$/, '')}, so ${consequence(path)}`));
    }
    return out;
  },
};

function consequence(path: (string | number)[]): string {
  if (path.length === 1 && path[0] === 'polytoken') return 'Polytoken cannot read any setting from it and the definition will not load as written; make it a mapping of the `polytoken` keys.';
  return 'Polytoken cannot read the definition with this value; write it with the type the key expects (hover the key for its shape).';
}

/** polytoken/unknown-key: keys outside SPEC §4's lists, with the nearest known key. */
export const unknownKeyRule: Rule = {
  ids: ['polytoken/unknown-key'],
  check(ctx) {
    const def = definitionOf(ctx);
    if (!def) return [];
    const unknownIn = (node: AstNode | undefined, known: readonly string[], where: string, nested: boolean) =>
      unknownKeyFindings(
        node,
        known,
        (key) => nearestName(key, known, Math.max(2, Math.floor(key.length / 4))),
        ({ key, keyNode }, near) => {
          if (!nested && !near && (POLYTOKEN_KEYS as readonly string[]).includes(key)) {
            return at(
              ctx,
              'polytoken/unknown-key',
              keyNode,
              `\`${key}\` is a Polytoken setting but sits at the top level, where Polytoken does not look for it, so it has no effect; move it under the \`polytoken\` mapping.`,
              { moveTo: 'polytoken' },
            );
          }
          const hint = near ? `did you mean \`${near}\`?` : `the known keys ${where} are ${known.map((k) => `\`${k}\``).join(', ')}.`;
          return at(ctx, 'polytoken/unknown-key', keyNode, `\`${key}\` is not a key Polytoken knows ${where}, so it has no effect; ${near ? `rename it: ${hint}` : `remove it or fix it: ${hint}`}`, renameOrRemove(near));
        },
      );
    return [...unknownIn(def.root, TOP_LEVEL_KEYS, 'at the top level', false), ...unknownIn(def.poly, POLYTOKEN_KEYS, 'under `polytoken`', true)];
  },
};
