/**
 * The MCP server's line transport on real streams: messages split anywhere across chunks, CRLF,
 * a line over the limit skipped without ending the session, bad lines reported and skipped.
 */
import { strict as assert } from 'assert';
import { PassThrough } from 'stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { LineTransport } from '../../cli/mcp/stdio';

function harness(maxBytes: number) {
  const input = new PassThrough();
  const output = new PassThrough();
  const log: string[] = [];
  const messages: JSONRPCMessage[] = [];
  const errors: string[] = [];
  const transport = new LineTransport(input, output, (l) => log.push(l), maxBytes);
  transport.onmessage = (m) => messages.push(m);
  transport.onerror = (e) => errors.push(e.message);
  return { input, output, log, messages, errors, transport };
}

const ping = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' });
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('the MCP line transport', () => {
  it('reads messages split anywhere across chunks, with LF or CRLF, in order', async () => {
    const h = harness(1 << 20);
    await h.transport.start();
    const stream = `${ping(1)}\n${ping(2)}\r\n\n${ping(3)}\n`;
    // Every split point: one byte at a time.
    for (const byte of Buffer.from(stream)) h.input.write(Buffer.from([byte]));
    await tick();
    assert.deepEqual(
      h.messages.map((m) => (m as { id: number }).id),
      [1, 2, 3],
    );
  });

  it('skips a line longer than the limit, logs it, and reads the next one', async () => {
    const h = harness(100);
    await h.transport.start();
    const long = JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping', params: { pad: 'x'.repeat(500) } });
    h.input.write(long.slice(0, 60));
    h.input.write(long.slice(60) + '\n' + ping(10) + '\n');
    await tick();
    assert.deepEqual(
      h.messages.map((m) => (m as { id: number }).id),
      [10],
    );
    assert.deepEqual(h.log, ['a message longer than 100 bytes is ignored']);
  });

  it('reports a line that is not JSON-RPC and goes on; closes when the input ends', async () => {
    const h = harness(1 << 20);
    let closed = false;
    h.transport.onclose = () => (closed = true);
    await h.transport.start();
    h.input.write('{oops\n{"id":1}\n' + ping(4) + '\n');
    await tick();
    assert.equal(h.errors.length, 2);
    assert.match(h.errors[0], /^a message that is not JSON-RPC is ignored: /);
    assert.deepEqual(
      h.messages.map((m) => (m as { id: number }).id),
      [4],
    );
    h.input.end();
    await tick();
    assert.equal(closed, true);
  });

  it('writes one line per message', async () => {
    const h = harness(1 << 20);
    await h.transport.send({ jsonrpc: '2.0', id: 1, result: { text: 'a\nb' } });
    assert.equal(h.output.read().toString(), '{"jsonrpc":"2.0","id":1,"result":{"text":"a\\nb"}}\n');
  });

  it('takes a line of exactly the limit, and skips one a byte longer', async () => {
    const line = ping(7);
    const h = harness(Buffer.byteLength(line));
    await h.transport.start();
    h.input.write(`${line}\n${ping(70)}\n${line}\r\n`);
    await tick();
    // The CR counts: the third line is one byte over.
    assert.deepEqual(
      h.messages.map((m) => (m as { id: number }).id),
      [7],
    );
    assert.equal(h.log.length, 2);
  });

  it('a blank or whitespace line is no message and no error', async () => {
    const h = harness(1 << 20);
    await h.transport.start();
    h.input.write(`\n   \n\r\n${ping(5)}`);
    h.input.write('\n');
    await tick();
    assert.deepEqual(h.errors, []);
    assert.deepEqual(
      h.messages.map((m) => (m as { id: number }).id),
      [5],
    );
  });

  it('an input error is reported, not thrown; after close nothing is read or written, and close is said once', async () => {
    const h = harness(1 << 20);
    let closes = 0;
    h.transport.onclose = () => closes++;
    await h.transport.start();
    h.input.emit('error', new Error('EIO'));
    assert.deepEqual(h.errors, ['EIO']);
    await h.transport.close();
    await h.transport.close();
    assert.equal(closes, 1);
    h.input.write(`${ping(6)}\n`);
    await tick();
    assert.deepEqual(h.messages, []);
    await h.transport.send({ jsonrpc: '2.0', id: 1, result: {} });
    assert.equal(h.output.read(), null);
  });

  it('waits for the output to drain when it is full', async () => {
    const input = new PassThrough();
    const output = new PassThrough({ highWaterMark: 8 });
    const transport = new LineTransport(input, output, () => undefined);
    let sent = false;
    const sending = transport
      .send({ jsonrpc: '2.0', id: 1, result: { pad: 'x'.repeat(64) } })
      .then(() => (sent = true));
    await tick();
    assert.equal(sent, false, 'still waiting: nobody read the output');
    output.read();
    await sending;
    assert.equal(sent, true);
  });
});
