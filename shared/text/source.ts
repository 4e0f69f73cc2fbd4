import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Position, Range } from 'vscode-languageserver-types';

/** The line ending a text uses: that of its first line break (`\n` when it has none). */
export function lineEndingOf(text: string): '\n' | '\r\n' {
  const nl = text.indexOf('\n');
  return nl > 0 && text[nl - 1] === '\r' ? '\r\n' : '\n';
}

/**
 * A document's text with offset/position conversion. A leading BOM is dropped, as
 * editors do, so that positions agree between the CLI and VS Code.
 */
export class SourceText {
  readonly text: string;
  private readonly doc: TextDocument;

  constructor(raw: string) {
    this.text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
    // Stryker disable next-line StringLiteral: the URI and language of a document only this class sees
    this.doc = TextDocument.create('file:///source', 'plaintext', 0, this.text);
  }

  position(offset: number): Position {
    return this.doc.positionAt(offset);
  }

  offset(position: Position): number {
    return this.doc.offsetAt(position);
  }

  range(start: number, end: number): Range {
    return { start: this.position(start), end: this.position(Math.max(start, end)) };
  }

  get lineCount(): number {
    return this.doc.lineCount;
  }

  /** The first line, for file-level problems. */
  firstLine(): Range {
    return this.lineRange(0);
  }

  lineRange(line: number): Range {
    const start = this.doc.offsetAt({ line, character: 0 });
    let end = this.doc.offsetAt({ line: line + 1, character: 0 });
    // Stryker disable next-line ConditionalExpression,EqualityOperator: `range` clamps an end before the start
    for (; end > start; end--) {
      const last = this.text[end - 1];
      if (last !== '\n' && last !== '\r') break;
    }
    return this.range(start, end);
  }
}
