/**
 * Text from the user (a file name, a value quoted in a message) shown on one line of a
 * terminal, a log or a report, whatever it holds (README, "File names in the output").
 */

/** C0 controls, DEL, C1 controls and the Unicode line and paragraph separators. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');

/**
 * `text` with every control character written as an escape: `\xNN` up to U+00FF (a newline is
 * `\x0a`, ESC is `\x1b`), `\u2028` and `\u2029`. A newline in a name then never starts a line of
 * output, nor an ESC a terminal sequence. Everything else, `\` included, is shown as it is.
 */
export function printable(text: string): string {
  return text.replace(CONTROL, (c) => {
    const code = c.charCodeAt(0);
    // Stryker disable next-line EqualityOperator: no control character lies between U+009F and U+0100
    return code <= 0xff ? `\\x${hex(code, 2)}` : `\\u${hex(code, 4)}`;
  });
}

/** JSON text whose strings hold no raw C1 control or line separator either (JSON.stringify escapes only C0). */
export function printableJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(/[\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${hex(c.charCodeAt(0), 4)}`);
}

const strict = new TextDecoder('utf-8', { fatal: true });

/**
 * How many bytes a UTF-8 sequence starting with `lead` would have. The strict decoder judges
 * whether those bytes are one (a continuation byte, an overlong or out-of-range lead, a sequence
 * cut by the end of the name: it refuses them all).
 */
function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead < 0xe0) return 2;
  if (lead < 0xf0) return 3;
  return 4;
}

/**
 * A name that is not valid UTF-8, shown by its bytes: each valid character as `printable`
 * shows it, each byte that is not part of one as `\xNN` (`bad\xff.md`).
 */
export function printableBytes(bytes: Uint8Array): string {
  let out = '';
  let run = 0; // start of the current run of valid sequences
  let i = 0;
  const flush = (end: number) => {
    // Stryker disable next-line ConditionalExpression,EqualityOperator: an empty run decodes to ''
    if (end > run) out += printable(strict.decode(bytes.subarray(run, end)));
  };
  while (i < bytes.length) {
    const n = sequenceLength(bytes[i]);
    // Stryker disable next-line ConditionalExpression: `n === 1` only spares the decoder an ASCII byte
    if (n === 1 || isValidSequence(bytes.subarray(i, i + n))) {
      i += n;
      continue;
    }
    flush(i);
    out += `\\x${hex(bytes[i], 2)}`;
    run = ++i;
  }
  flush(i);
  return out;
}

function isValidSequence(sequence: Uint8Array): boolean {
  try {
    strict.decode(sequence); // also refuses overlong forms and surrogates
    return true;
  } catch {
    return false;
  }
}
