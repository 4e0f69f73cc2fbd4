import type { FixPlan } from '../../../types';
import { getProperty, isObject, isString, stringItems, type AstNode } from '../../../text/tree';
import { findingOn } from '../../common';
import { appendToListEdit, insertKeyLinesEdit, removeItemEdit, removePropertyEdit } from '../../../fixes/edits';
import { STATUS_FIELDS } from '../constants';
import { polyProperty } from '../model';
import { readable, type PolytokenFix, type PolytokenRule, type PolytokenFinding } from '../util';

/** The JSON types a property schema declares (`type: integer`, `type: [string, null]`); empty when it says none. */
function declaredTypes(schema: AstNode | undefined): string[] {
  const type = getProperty(schema, 'type')?.value;
  if (isString(type)) return [type.value];
  return stringItems(type).map((i) => i.value);
}

const hasStringEnum = (schema: AstNode | undefined) => stringItems(getProperty(schema, 'enum')?.value).length > 0;

/** A required `success` boolean decides every classification before the status fields. */
function successDecides(properties: AstNode, required: readonly string[]): boolean {
  return required.includes('success') && declaredTypes(getProperty(properties, 'success')?.value).includes('boolean');
}

/**
 * polytoken/status-field-order: the runtime classifies an exit by the FIRST present of
 * `kind`, `outcome`, `status` and reads no later field when that one is not a string. So an
 * earlier field hides a later field's enum when it is (a) declared with a non-string type
 * (the exit then counts as a successful return) or (b) a string without an enum (the runtime
 * classifies by its free-form value and refuses exits outside the families). Warning when
 * the earlier field is required (always present), information otherwise.
 */
export const statusFieldOrderRule: PolytokenRule = {
  ids: ['polytoken/status-field-order'],
  check(ctx) {
    const model = readable(ctx);
    const schema = model && polyProperty(model, 'exit_tool_schema')?.value;
    const properties = getProperty(schema, 'properties')?.value;
    if (!isObject(schema) || !isObject(properties)) return [];
    const required = stringItems(getProperty(schema, 'required')?.value).map((i) => i.value);
    if (successDecides(properties, required)) return [];
    const out: PolytokenFinding[] = [];
    STATUS_FIELDS.forEach((field, i) => {
      const prop = getProperty(properties, field);
      if (!prop) return;
      const later = STATUS_FIELDS.slice(i + 1).find((f) => hasStringEnum(getProperty(properties, f)?.value));
      if (!later) return;
      const types = declaredTypes(prop.value);
      const nonString = types.length > 0 && !types.includes('string');
      const freeForm = !nonString && !hasStringEnum(prop.value);
      if (!nonString && !freeForm) return;
      const isRequired = required.includes(field);
      const when = isRequired ? 'it is required, so every exit carries it' : 'whenever an exit carries it';
      const freeText = `the runtime classifies the exit by this free-form value and refuses (then retries) any exit whose value is outside the success, failure and cancelled families, whatever \`${later}\` says`;
      const effect = nonString
        ? `it is declared as ${types.join(' or ')}, not a string: ${when}, the runtime stops there, never reads the \`${later}\` enum and counts the exit as a successful return`
        : types.length
          ? `it is a string without an \`enum\`: ${when}, ${freeText}`
          : `it declares no type and no \`enum\`: ${when}, a value that is not a string stops the runtime there (the \`${later}\` enum is never read), and a string is free text: ${freeText}`;
      out.push(
        findingOn(
          ctx,
          'polytoken/status-field-order',
          prop.keyNode,
          `Polytoken classifies an exit by the first present of \`kind\`, \`outcome\` and \`status\`, and \`${field}\` comes before \`${later}\`; ${effect}; remove \`${field}\`, give it the recognized enum, or add a required \`success\` boolean property, which decides first.`,
          { field, later },
          isRequired ? 'warning' : 'information',
        ),
      );
    });
    return out;
  },
  fixes: {
    // Both fixes change the payload's contract: offered, never preferred.
    'polytoken/status-field-order': (req) => statusFieldFixes(req),
  },
};

function statusFieldFixes(req: PolytokenFix): FixPlan[] {
  const field = typeof req.data.field === 'string' ? req.data.field : undefined;
  const schema = polyProperty(req.ctx.model, 'exit_tool_schema')?.value;
  const properties = getProperty(schema, 'properties')?.value;
  const prop = field && isObject(properties) ? getProperty(properties, field) : undefined;
  if (!field || !prop || !isObject(schema) || !isObject(properties)) return [];
  const fixes: FixPlan[] = [];
  const requiredItem = stringItems(getProperty(schema, 'required')?.value).find((i) => i.value === field);
  const remove = [
    removePropertyEdit(req.ctx, prop.keyNode),
    ...(requiredItem ? [removeItemEdit(req.ctx, requiredItem.node)] : []),
  ];
  fixes.push({ title: `Remove \`${field}\` from the exit schema`, edits: remove });
  if (!getProperty(properties, 'success')) {
    const add = insertKeyLinesEdit(req.ctx, properties, ['success:', '  type: boolean']);
    // A `required` that is neither a list nor empty gets no edit (appendToListEdit): nothing to append to.
    const require = appendToListEdit(req.ctx, schema, 'required', 'success');
    if (add && require) fixes.push({ title: 'Add a required `success` boolean property', edits: [add, require] });
  }
  return fixes;
}
