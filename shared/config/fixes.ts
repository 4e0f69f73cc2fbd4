/**
 * Quick fixes of `config/invalid`, read from the finding's data like every rule's: rename an
 * unknown key or rule id to the one it is closest to (the finding offers it only when the
 * mapping does not have that key yet), correct a misspelt severity, or remove a setting that
 * has no effect. Asked for through shared/fixes/registry.ts, as every rule's fixes are.
 */
import type { FixPlan, FixTarget } from '../types';
import { dataString, replaceFix, standardFixes } from '../fixes/plans';

export function configFixPlans(req: FixTarget): FixPlan[] {
  const { node } = req;
  // Only a finding on a node of its own: a problem shown on a key for its whole value is not the key's.
  if (!node || node.start !== req.start || node.end !== req.end) return [];
  const replacement = dataString(req, 'replacement');
  if (replacement !== undefined && !node.keyOf && (node.kind === 'string' || node.kind === 'number')) {
    // A severity is plain text to this YAML 1.2 reader (`off` included): written as it reads, unless quoted already.
    const quoted = /^["']/.test(req.ctx.file.source.text.slice(req.start, req.end));
    const fix = replaceFix(req, replacement);
    return quoted ? [fix] : [{ ...fix, edits: [{ range: req.diagnostic.range, newText: replacement }] }];
  }
  return node.keyOf ? standardFixes(req) : [];
}
