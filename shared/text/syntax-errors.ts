/** A syntax problem: offsets into the whole document and a one-sentence message. */
export interface SyntaxError {
  start: number;
  end: number;
  message: string;
  /**
   * The yaml package's error code (`BAD_SCALAR_START`, `MULTIPLE_DOCS`): a dialect may say it in its runtime's terms.
   */
  code?: string;
}

/** Past this many syntax errors in one file, the rest are summed up in one more (a broken file can yield millions). */
export const MAX_SYNTAX_ERRORS = 50;

const byPosition = (a: SyntaxError, b: SyntaxError) => a.start - b.start;

/**
 * Collects syntax errors and keeps the first MAX_SYNTAX_ERRORS by position, counting the
 * rest, so that a file of a million stray commas costs a counter, not a million objects.
 * Errors may come in any order (the parser's, then checks of our own).
 */
export class SyntaxErrorSink {
  private kept: SyntaxError[] = [];
  private dropped = 0;

  constructor(private readonly language: 'YAML' | 'JSON') {}

  add(error: SyntaxError): void {
    this.kept.push(error);
    // Trimmed in batches: linear overall, whatever the number of errors.
    // Stryker disable next-line ConditionalExpression,EqualityOperator,ArithmeticOperator: the batch size changes the cost, not the errors kept
    if (this.kept.length >= 4 * MAX_SYNTAX_ERRORS) this.trim();
  }

  /** The kept errors in position order, then one that says how many more there are. */
  result(): SyntaxError[] {
    this.trim();
    const out = this.kept.slice();
    if (this.dropped) {
      const last = out[out.length - 1];
      out.push({
        ...last,
        message: `${this.dropped} more ${this.language} syntax errors follow; fix the ones above first.`,
      });
    }
    return out;
  }

  private trim(): void {
    this.kept.sort(byPosition);
    // Stryker disable next-line EqualityOperator: at exactly the limit, nothing is dropped either way
    if (this.kept.length > MAX_SYNTAX_ERRORS) {
      this.dropped += this.kept.length - MAX_SYNTAX_ERRORS;
      this.kept.length = MAX_SYNTAX_ERRORS;
    }
  }
}
