/** Quick fixes of syntax problems that have one obvious repair. */
import type { FixPlan, FixTarget } from '../types';
import { rangeOf } from './edits';

/** Characters YAML reserves at the start of a plain value that an author means literally (`invocation: @name`). */
const RESERVED_STARTS = '@`%';

/**
 * `syntax/yaml` on a plain value that starts with a reserved character: *Quote `<value>`*. The
 * value runs to the end of its line (before a comment); one that holds a flow or mapping
 * indicator gets no fix, since where it ends is not certain.
 */
export function syntaxYamlFixes(req: FixTarget): FixPlan[] {
  if (req.data.code !== 'BAD_SCALAR_START') return [];
  const text = req.ctx.file.source.text;
  if (!RESERVED_STARTS.includes(text[req.start] ?? '\n')) return [];
  const lineEnd = text.indexOf('\n', req.start);
  let value = text.slice(req.start, lineEnd < 0 ? text.length : lineEnd).replace(/\r$/, '');
  const comment = value.search(/\s#/);
  if (comment >= 0) value = value.slice(0, comment);
  value = value.trimEnd();
  if (/[,[\]{}"']|: /.test(value)) return [];
  const quoted = JSON.stringify(value);
  return [
    {
      title: `Quote \`${value}\``,
      edits: [{ range: rangeOf(req.ctx, req.start, req.start + value.length), newText: quoted }],
      preferred: true,
    },
  ];
}
