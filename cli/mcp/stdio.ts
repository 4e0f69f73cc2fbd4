/**
 * The MCP stdio transport: one JSON-RPC message per line. The SDK's own transport copies its
 * whole buffer for every chunk that arrives (a 4 MB message took 1.2 s) and closes, ending the
 * session, on a message above 10 MB. This one keeps the chunks of the current line and joins them
 * once, so reading is linear, and a line above the limit is dropped (logged) while the session
 * goes on.
 */
import type { Readable, Writable } from 'stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * The longest message read: a definition at the size limit (5 MB) as JSON text, even with every
 * character escaped, fits with room to spare.
 */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

const NEWLINE = 0x0a;

export class LineTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;

  private chunks: Buffer[] = [];
  private size = 0;
  /** The current line went over the limit: its rest is skipped up to the next newline. */
  private skipping = false;
  private closed = false;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    private readonly log: (line: string) => void,
    private readonly maxBytes = MAX_MESSAGE_BYTES,
  ) {}

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('end', this.onEnd);
    this.input.on('error', this.onInputError);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return;
    const line = JSON.stringify(message) + '\n';
    if (!this.output.write(line)) await new Promise<void>((resolve) => this.output.once('drain', resolve));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.input.off('error', this.onInputError);
    this.chunks = [];
    this.onclose?.();
  }

  private readonly onEnd = () => void this.close();
  private readonly onInputError = (e: Error) => this.onerror?.(e);

  private readonly onData = (chunk: Buffer) => {
    let start = 0;
    for (let newline = chunk.indexOf(NEWLINE); newline !== -1; newline = chunk.indexOf(NEWLINE, start)) {
      this.take(chunk.subarray(start, newline));
      if (!this.skipping && this.size) this.deliver(Buffer.concat(this.chunks, this.size).toString('utf8'));
      this.chunks = [];
      this.size = 0;
      this.skipping = false;
      start = newline + 1;
    }
    if (start < chunk.length) this.take(chunk.subarray(start));
  };

  /** Adds a piece of the current line, or starts skipping it when it grows past the limit. */
  private take(piece: Buffer): void {
    if (this.skipping || !piece.length) return;
    if (this.size + piece.length > this.maxBytes) {
      this.log(`a message longer than ${this.maxBytes} bytes is ignored`);
      this.skipping = true;
      this.chunks = [];
      this.size = 0;
      return;
    }
    this.chunks.push(piece);
    this.size += piece.length;
  }

  private deliver(line: string): void {
    const text = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (!text.trim()) return;
    let message: JSONRPCMessage;
    try {
      message = JSONRPCMessageSchema.parse(JSON.parse(text));
    } catch (e) {
      this.onerror?.(new Error(`a message that is not JSON-RPC is ignored: ${(e as Error).message.split('\n')[0]}`));
      return;
    }
    this.onmessage?.(message);
  }
}
