/**
 * The differential checks of the fast readers: where shared/text/yaml-fast.ts answers, its
 * tree must be the yaml package's, node for node (kind, value, range, flow, links), and
 * parseYaml's errors (repeated keys, the only ones the fast reader answers with) the
 * package's; where shared/text/json-fast.ts answers, parseJson's result must be jsonc-parser's.
 */
import type { AstNode, AstProperty } from '../../shared/text/tree';
import { parseYaml, parseYamlWithPackage } from '../../shared/text/yaml';
import { parseYamlFast } from '../../shared/text/yaml-fast';
import { parseJson, parseJsonWithPackage } from '../../shared/text/json';
import { parseJsonFast } from '../../shared/text/json-fast';

/** Where two trees differ (a path and both sides), or undefined when they are the same. */
export function treeDifference(a: AstNode | undefined, b: AstNode | undefined, path = '$'): string | undefined {
  if (!a || !b)
    return a === b ? undefined : `${path}: ${a ? 'only the fast tree has a node' : 'only the package has a node'}`;
  if (a.kind !== b.kind) return `${path}: kind ${a.kind} vs ${b.kind}`;
  if (a.start !== b.start || a.end !== b.end) return `${path}: range [${a.start},${a.end}] vs [${b.start},${b.end}]`;
  if (!Object.is(a.value, b.value)) return `${path}: value ${JSON.stringify(a.value)} vs ${JSON.stringify(b.value)}`;
  if (!!a.flow !== !!b.flow || !!a.viaAlias !== !!b.viaAlias) return `${path}: flow or alias`;
  if ((a.properties?.length ?? -1) !== (b.properties?.length ?? -1)) return `${path}: number of properties`;
  if ((a.items?.length ?? -1) !== (b.items?.length ?? -1)) return `${path}: number of items`;
  for (let i = 0; i < (a.properties?.length ?? 0); i++) {
    const p: AstProperty = a.properties![i];
    const q: AstProperty = b.properties![i];
    if (p.key !== q.key) return `${path}: key ${JSON.stringify(p.key)} vs ${JSON.stringify(q.key)}`;
    const d =
      treeDifference(p.keyNode, q.keyNode, `${path}.key(${p.key})`) ??
      treeDifference(p.value, q.value, `${path}.${p.key}`);
    if (d) return d;
    if (
      p.parent !== a ||
      p.keyNode.keyOf !== p ||
      p.value.property !== p ||
      p.value.parent !== a ||
      p.keyNode.parent !== a
    )
      return `${path}.${p.key}: parent or property links`;
  }
  for (let i = 0; i < (a.items?.length ?? 0); i++) {
    const d = treeDifference(a.items![i], b.items![i], `${path}[${i}]`);
    if (d) return d;
    if (a.items![i].parent !== a) return `${path}[${i}]: parent link`;
  }
  return undefined;
}

/** Whether the fast reader answered, and how its answer differs from the package's (undefined: the same). */
export function compareWithPackage(text: string, base = 0): { fast: boolean; difference?: string } {
  if (!parseYamlFast(text, base)) return { fast: false };
  const ours = parseYaml(text, base);
  const reference = parseYamlWithPackage(text, base);
  const errors = (r: typeof ours) => JSON.stringify(r.errors);
  if (errors(ours) !== errors(reference))
    return { fast: true, difference: `errors ${errors(ours)} vs ${errors(reference)}` };
  return { fast: true, difference: treeDifference(ours.root, reference.root) };
}

/** Whether the fast JSON reader answered, and how parseJson then differs from jsonc-parser's path (undefined: the same). */
export function compareJsonWithPackage(text: string): { fast: boolean; difference?: string } {
  if (!parseJsonFast(text)) return { fast: false };
  const ours = parseJson(text);
  const reference = parseJsonWithPackage(text);
  const rest = (r: typeof ours) => JSON.stringify([r.errors, r.duplicateKeys]);
  if (rest(ours) !== rest(reference)) return { fast: true, difference: `errors ${rest(ours)} vs ${rest(reference)}` };
  return { fast: true, difference: treeDifference(ours.root, reference.root) };
}
