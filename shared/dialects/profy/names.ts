/** The names of a Profy Expert file: the Expert's, then each named subagent's (docs/runtimes/profy.md). */
import { SymbolKind } from 'vscode-languageserver-types';
import type { DialectNames } from '../module';
import { nameRange, topLevelName } from '../common';
import { getValue, isArray, isString } from '../../text/tree';
import type { IndexedName } from '../../types';

export const profyNames: DialectNames = {
  of(file, stem) {
    const expert = topLevelName(file, stem, SymbolKind.Module);
    const out: IndexedName[] = [expert];
    const subagents = getValue(file.root, 'subagents');
    if (isArray(subagents)) {
      for (const item of subagents.items) {
        const n = getValue(item, 'name');
        if (isString(n) && n.value)
          out.push({ name: n.value, range: nameRange(file, n), symbolKind: SymbolKind.Class, container: expert.name });
      }
    }
    return out;
  },
  // Subagent names are unique within their Expert only; Experts do not clash across files.
  clash: false,
};
