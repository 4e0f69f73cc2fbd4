/**
 * Suppression comments as the engine applies them, and the rules about the comments
 * themselves: `directive/unknown-rule` (a directive names a rule id that does not exist) and
 * `directive/unused` (a directive, or one of its ids, silences nothing; as ESLint reports
 * unused disable directives). Directives change what is shown, never a definition's status.
 */
import type { Range } from 'vscode-languageserver-types';
import type { FixPlan, FixTarget, Finding, RuleId } from '../types';
import { offered } from '../fixes/plans';
import type { SourceText } from '../text/source';
import type { SuppressionDirective, Suppressions } from '../text/suppress';
import { nearestName } from '../text/nearest';
import { isRuleId, RULES } from './registry';

const ALL = '*';

/** Which directives silence which findings, and which of their ids were needed. */
export class DirectiveUse {
  /** The directives by scope (`file`, or the line they cover) and id (or `*`): a finding looks up only its own. */
  private readonly index = new Map<string, SuppressionDirective[]>();
  /** Each directive's ids (or `*`) that silenced a finding. */
  private readonly used = new Map<SuppressionDirective, Set<string>>();

  constructor(private readonly suppressions: Suppressions) {
    for (const d of suppressions.directives) {
      const scope = d.kind === 'file' ? 'file' : String(d.range.start.line + 1);
      for (const id of d.rules.length ? d.rules.map((r) => r.id) : [ALL]) {
        const key = `${scope} ${id}`;
        const list = this.index.get(key);
        if (list) list.push(d);
        else this.index.set(key, [d]);
      }
    }
  }

  /** True when a directive silences this rule on this line; records which directives and ids did. */
  silences(rule: RuleId, line: number): boolean {
    let silenced = false;
    for (const scope of ['file', String(line)]) {
      for (const id of [rule, ALL]) {
        for (const d of this.index.get(`${scope} ${id}`) ?? []) {
          silenced = true;
          let ids = this.used.get(d);
          if (!ids) this.used.set(d, (ids = new Set()));
          ids.add(id);
        }
      }
    }
    return silenced;
  }

  /** directive/unknown-rule and directive/unused findings, once every finding has been seen. */
  findings(): Finding[] {
    const out: Finding[] = [];
    for (const d of this.suppressions.directives) {
      const used = this.used.get(d);
      if (!d.rules.length) {
        if (!used)
          out.push(
            unused(d, d.range, 'This directive silences every rule, and no rule reports anything it covers', {
              whole: true,
            }),
          );
        continue;
      }
      for (const r of d.rules) {
        if (!isRuleId(r.id)) {
          const near = nearestName(
            r.id,
            RULES.map((x) => x.id),
            4,
          );
          // A slip of a letter or two is a typo; a farther id may be another rule the author meant, or one of a newer
          // version.
          const typo = near !== undefined && nearestName(r.id, [near], 2) === near;
          out.push({
            rule: 'directive/unknown-rule',
            range: r.range,
            message: `\`${r.id}\` is not a rule id, so this directive silences nothing for it; ${near ? `did you mean \`${near}\`?` : 'run `subagents rules` to list them.'}`,
            data: near ? { replacement: near, typo } : { ...removal(d, r), keep: true },
          });
        } else if (!used?.has(r.id)) {
          out.push(
            unused(
              d,
              r.range,
              `No \`${r.id}\` diagnostic ${d.kind === 'file' ? 'in this file' : 'on the next line'} is silenced by this directive`,
              removal(d, r),
            ),
          );
        }
      }
    }
    return out;
  }
}

function unused(d: SuppressionDirective, range: Range, what: string, data: Record<string, unknown>): Finding {
  return { rule: 'directive/unused', range, message: `${what}, so it has no effect; remove it.`, data };
}

/** What removing one id means: the whole comment when it is the only one, else the id with its comma. */
function removal(d: SuppressionDirective, r: { id: string }): Record<string, unknown> {
  return d.rules.length === 1 ? { whole: true } : { id: r.id };
}

/** The comment's own span, to remove it: the whole line when nothing else is on it, else from the space before `#`. */
function commentRemoval(source: SourceText, d: SuppressionDirective): { start: number; end: number } {
  const text = source.text;
  let start = source.offset(d.range.start);
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  let end = source.offset(d.range.end);
  while (end < text.length && text[end] !== '\n' && text[end] !== '\r') end++;
  if (/^[ \t]*$/.test(text.slice(lineStart, start))) {
    if (text[end] === '\r') end++;
    if (text[end] === '\n') end++;
    return { start: lineStart, end };
  }
  // Stryker disable next-line ConditionalExpression,EqualityOperator: a blank prefix returned above, so a non-blank character stops the walk before lineStart
  while (start > lineStart && /[ \t]/.test(text[start - 1])) start--;
  return { start, end };
}

/** The directive whose range holds an offset. */
function directiveAt(
  directives: readonly SuppressionDirective[],
  source: SourceText,
  offset: number,
): SuppressionDirective | undefined {
  return directives.find((d) => offset >= source.offset(d.range.start) && offset <= source.offset(d.range.end));
}

/** Removing an id from a list `a, b, c`: the id and the comma on one side. */
function idRemoval(
  source: SourceText,
  d: SuppressionDirective,
  id: string,
): { start: number; end: number } | undefined {
  const i = d.rules.findIndex((r) => r.id === id);
  if (i < 0) return undefined;
  const here = d.rules[i];
  if (i < d.rules.length - 1)
    return { start: source.offset(here.range.start), end: source.offset(d.rules[i + 1].range.start) };
  return { start: source.offset(d.rules[i - 1].range.end), end: source.offset(here.range.end) };
}

/**
 * The fixes of the two directive rules, for any file with directives (definitions and
 * `.subagents.yaml`); they read the directives the analysis found, not the comments again.
 */
export function directiveFixes(): Partial<Record<RuleId, (req: FixTarget) => FixPlan[]>> {
  const remove = (req: FixTarget): FixPlan[] => {
    const source = req.ctx.file.source;
    const d = directiveAt(req.directives, source, req.start);
    if (!d) return [];
    const span = req.data.whole
      ? commentRemoval(source, d)
      : typeof req.data.id === 'string'
        ? idRemoval(source, d, req.data.id)
        : undefined;
    if (!span) return [];
    const plan: FixPlan = {
      title: req.data.whole ? 'Remove this directive' : `Remove \`${String(req.data.id)}\` from this directive`,
      edits: [{ range: source.range(span.start, span.end), newText: '' }],
      preferred: true,
    };
    return [plan];
  };
  return {
    'directive/unknown-rule': (req) => {
      const replacement = typeof req.data.replacement === 'string' ? req.data.replacement : undefined;
      if (replacement)
        return [
          {
            title: `Change to \`${replacement}\``,
            edits: [{ range: req.diagnostic.range, newText: replacement }],
            preferred: req.data.typo === true,
          },
        ];
      // An id no rule has may be one of a newer version: removing it is offered, not preferred.
      return offered(remove(req));
    },
    'directive/unused': remove,
  };
}
