/**
 * `subagents mcp`'s workspace: the client's roots (asked again when they change), the current
 * folder otherwise, and nothing outside read or written, links included. Also: an unexpected
 * exception is a tool error and the server goes on; `subagents mcp --help` and bad options.
 */
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { assertUsageError, CLI, ROOT, Temps, VALID_PICASSO, VALID_POLYTOKEN } from '../support/cli';
import { mcpSession } from './harness';

const temps = new Temps();
after(() => temps.remove());

const names = (data: { files: { path: string }[] }) => data.files.map((f) => f.path);

describe('subagents mcp: the workspace roots', function () {
  this.timeout(60000);

  it("works in the client's roots, not in the folder it started in, and follows a change of roots", async () => {
    const started = temps.workspace({ '.polytoken/subagents/here.md': VALID_POLYTOKEN('here') });
    const a = temps.workspace({ '.polytoken/subagents/alpha.md': VALID_POLYTOKEN('alpha') });
    const b = temps.workspace({ 'apps/cli/agents/beta.yaml': VALID_PICASSO('beta') });
    const mcp = await mcpSession(started, temps.xdg, { roots: [a] });
    try {
      assert.deepEqual(names(await mcp.data('check')), ['.polytoken/subagents/alpha.md']);
      // Relative paths are relative to the first root.
      assert.equal((await mcp.data('resolve', { path: '.polytoken/subagents/alpha.md' })).definitions[0].name, 'alpha');
      assert.match(
        await mcp.error('check', { paths: [path.join(started, '.polytoken/subagents/here.md')] }),
        /outside the workspace \(the client's roots: /,
      );
      await mcp.setRoots([b, a]);
      const listed = await mcp.data('list_definitions');
      assert.deepEqual(listed.definitions.map((d: { path: string }) => d.path).sort(), [
        `../${path.basename(a)}/.polytoken/subagents/alpha.md`,
        'apps/cli/agents/beta.yaml',
      ]);
      // Several roots: groups start with the root's folder name.
      assert.ok(listed.definitions.every((d: { group: string }) => /^subagents-cli-/.test(d.group)));
      assert.deepEqual(names(await mcp.data('check')), [
        `../${path.basename(a)}/.polytoken/subagents/alpha.md`,
        'apps/cli/agents/beta.yaml',
      ]);
    } finally {
      await mcp.close();
    }
  });

  it('without a usable file:// root, the folder it started in (and the log says why)', async () => {
    const started = temps.workspace({ '.polytoken/subagents/here.md': VALID_POLYTOKEN('here') });
    for (const [uri, log] of [
      [
        `file://${path.join(started, 'missing')}`,
        /root file:\/\/.*\/missing is not used: .*no such file.*\n.*lists no usable file:\/\/ root; the workspace is /i,
      ],
      // The SDK's client refuses to send it: the roots answer is invalid.
      ['https://example.com/repo', /roots\/list failed \(.*\); the workspace is /],
    ] as const) {
      const mcp = await mcpSession(started, temps.xdg, { rootUris: [uri] });
      try {
        assert.deepEqual(names(await mcp.data('check')), ['.polytoken/subagents/here.md']);
        assert.match(mcp.stderr(), log);
        assert.equal(mcp.stderr().trim().split('\n').length, uri.startsWith('file:') ? 2 : 1, 'one line each');
      } finally {
        await mcp.close();
      }
    }
  });

  it('never reads through a link out of the workspace: a definition, a configuration, a folder', async () => {
    const outside = temps.workspace({
      'secret.md': '---\nname: secret\ndescription: TOP-SECRET-TEXT\n---\n',
      'config.yaml': 'rules: { TOP-SECRET-RULE: off }\n',
      'folder/.polytoken/subagents/x.md': VALID_POLYTOKEN('x'),
    });
    const ws = temps.workspace({
      'project/.polytoken/subagents/ok.md': VALID_POLYTOKEN('ok'),
      'inside.md': VALID_POLYTOKEN('linked'),
    });
    fs.symlinkSync(path.join(outside, 'secret.md'), path.join(ws, 'project/.polytoken/subagents/secret.md'));
    fs.symlinkSync(path.join(ws, 'inside.md'), path.join(ws, 'project/.polytoken/subagents/linked.md'));
    fs.symlinkSync(path.join(outside, 'config.yaml'), path.join(ws, 'project/.subagents.yaml'));
    fs.symlinkSync(path.join(outside, 'folder'), path.join(ws, 'elsewhere'));
    const mcp = await mcpSession(ws, temps.xdg);
    try {
      const r = await mcp.call('check');
      const all = JSON.stringify(r);
      assert.doesNotMatch(all, /TOP-SECRET/);
      const data = r.structuredContent as any;
      const refused = 'is a link to a file outside the workspace; it is not read';
      assert.deepEqual(data.unreadable, [
        { path: 'project/.polytoken/subagents/secret.md', message: refused },
        { path: 'project/.subagents.yaml', message: refused },
      ]);
      // A link that stays inside is read as usual.
      assert.deepEqual(names(data), ['project/.polytoken/subagents/linked.md', 'project/.polytoken/subagents/ok.md']);
      // The definitions beside the linked configuration are checked with the defaults.
      assert.equal(data.summary.errors, 0);
      assert.match(await mcp.error('check', { paths: ['elsewhere'] }), /^elsewhere: outside the workspace/);
      // A NUL would end the path early in the system's calls: refused, whatever follows it.
      for (const tool of ['check', 'resolve'])
        assert.equal(
          await mcp.error(tool, tool === 'check' ? { paths: ['project\0/x.md'] } : { path: 'project/ok.md\0' }),
          `${JSON.stringify(tool === 'check' ? 'project\0/x.md' : 'project/ok.md\0')}: a path cannot hold a NUL character`,
        );
      assert.match(
        await mcp.error('check', { paths: ['elsewhere/.polytoken/subagents/x.md'] }),
        /outside the workspace/,
      );
      assert.match(await mcp.error('resolve', { path: 'project/.polytoken/subagents/secret.md' }), /outside/);
      assert.match(
        await mcp.error('fix', {
          path: 'elsewhere/.polytoken/subagents/y.md',
          text: VALID_POLYTOKEN('y'),
          write: true,
        }),
        /outside the workspace/,
      );
      assert.equal(fs.existsSync(path.join(outside, 'folder/.polytoken/subagents/y.md')), false);
    } finally {
      await mcp.close();
    }
  });
});

describe('subagents mcp: the process', function () {
  this.timeout(60000);

  it('an unexpected exception in a tool is a tool error, logged with its stack on stderr, and the server goes on', async () => {
    // The bundle without the docs beside it: reading a rule page throws.
    const bare = temps.dir();
    fs.mkdirSync(path.join(bare, 'dist'));
    for (const f of ['cli.js', 'cli-main.js']) fs.copyFileSync(path.join(ROOT, 'dist', f), path.join(bare, 'dist', f));
    const ws = temps.workspace({ '.polytoken/subagents/a.md': VALID_POLYTOKEN('a') });
    const mcp = await mcpSession(ws, temps.xdg, { args: [path.join(bare, 'dist', 'cli.js'), 'mcp'] });
    try {
      assert.match(
        await mcp.error('explain_rule', { rule: 'profy/no-tools' }),
        /^internal error: the page rules\/profy\/no-tools\.md cannot be read/,
      );
      assert.match(mcp.stderr(), /subagents mcp: internal error in explain_rule: Error: the page .*\n\s+at /);
      assert.equal((await mcp.data('check')).summary.files, 1);
    } finally {
      await mcp.close();
    }
  });

  it('stdout carries only protocol messages; a line that is not JSON-RPC is logged and skipped', async () => {
    const ws = temps.workspace({});
    const { spawn } = await import('child_process');
    const child = spawn(process.execPath, [CLI, 'mcp'], {
      cwd: ws,
      env: { ...process.env, XDG_CONFIG_HOME: temps.xdg },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const send = (m: object | string) => child.stdin.write((typeof m === 'string' ? m : JSON.stringify(m)) + '\n');
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send('this is not json');
    send({ not: 'json-rpc' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'check', arguments: {} } });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if (out.includes('"id":2')) {
          clearInterval(poll);
          resolve();
        }
      }, 20);
    });
    child.stdin.end();
    assert.equal(await exited, 0, 'exits when the client closes stdin');
    const lines = out.trim().split('\n');
    assert.deepEqual(
      lines.map((l) => JSON.parse(l).id),
      [1, 2],
    );
    assert.equal(JSON.parse(lines[1]).result.structuredContent.summary.files, 0);
    assert.match(err, /subagents mcp: a message that is not JSON-RPC is ignored/);
  });

  it('`subagents mcp --help` prints the usage; an unknown option is a usage error', () => {
    const ws = temps.workspace({});
    const help = temps.run(['mcp', '--help'], ws);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^Usage: subagents mcp/);
    assert.match(help.stdout, /"command": "npx", "args": \["subagents", "mcp"\]/);
    assertUsageError(temps.run(['mcp', '--port', '80'], ws), /unknown option --port for `subagents mcp`/);
    assert.match(temps.run(['--help'], ws).stdout, /^ {2}mcp {7}start the MCP server/m);
  });
});
