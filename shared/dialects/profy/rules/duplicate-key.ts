import type { ProfyRule } from '../util';
import { findingAt, quote } from '../../common';

/**
 * `profy/duplicate-key`: a key given twice in one JSON object. Profy's reader (Python's json,
 * like JSON.parse) keeps the LAST value, and so does the engine for every rule and the
 * resolution; each earlier occurrence is reported, on its key. `data.next`: where the next
 * property starts, so that the fix removes the earlier one with its comma.
 */
export const duplicateKey: ProfyRule = {
  ids: ['profy/duplicate-key'],
  check(ctx) {
    const source = ctx.file.source;
    return (ctx.file.duplicateKeys ?? []).map((d) =>
      findingAt(
        'profy/duplicate-key',
        source.range(d.start, d.end),
        `${quote(d.key)} is given again later in this object, and Profy's JSON reader keeps only the last value, so this one is ignored; remove it (or merge what you meant into the later one).`,
        { start: d.start, next: d.next },
      ),
    );
  },
  fixes: {
    // The runtime ignores the earlier value: removing it changes nothing it does.
    'profy/duplicate-key': ({ ctx, data }) =>
      typeof data.start === 'number' && typeof data.next === 'number'
        ? [
            {
              title: 'Remove this earlier occurrence',
              edits: [{ range: ctx.file.source.range(data.start, data.next), newText: '' }],
              preferred: true,
            },
          ]
        : [],
  },
};
