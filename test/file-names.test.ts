/**
 * Paths by the platform's rules (`\` separates folders on Windows only) and the escaping of
 * names for output, as units: the CLI on real files is test/hardening/file-names.test.ts.
 */
import * as assert from 'assert';
import { defaultLoadedConfig } from '../shared/config/config';
import { analyze } from '../shared/engine';
import { dialectOf, fileStem } from '../shared/recognition';
import { toPosixOn } from '../shared/files';
import { printable, printableBytes, printableJson } from '../shared/text/printable';
import { escapeData, escapeProperty } from '../cli/github';
import { relativeUri } from '../cli/sarif';

const POSIX_ONLY = process.platform === 'win32' ? it.skip : it;

describe('file names: paths by the platform rules', () => {
  it('toPosixOn: `\\` is a separator on Windows only', () => {
    assert.strictEqual(toPosixOn('win32', 'C:\\ws\\.polytoken\\subagents\\t.md'), 'C:/ws/.polytoken/subagents/t.md');
    for (const platform of ['linux', 'darwin', 'freebsd'] as const)
      assert.strictEqual(toPosixOn(platform, '/ws/.polytoken/subagents/a\\b.md'), '/ws/.polytoken/subagents/a\\b.md');
  });

  it('the stem and the dialect of a name holding `\\`, as each platform reads the path', () => {
    const loaded = defaultLoadedConfig('/ws');
    const path = '/ws/.polytoken/subagents/..\\..\\victim\\zz.md';
    assert.strictEqual(fileStem(toPosixOn('linux', path)), '..\\..\\victim\\zz');
    assert.strictEqual(fileStem(toPosixOn('win32', path)), 'zz');
    assert.strictEqual(dialectOf(toPosixOn('linux', path), loaded, '/ws'), 'polytoken');
    // On Windows the same text names a file two folders up, outside the discovery folder.
    assert.strictEqual(dialectOf(toPosixOn('win32', path), loaded, '/ws'), undefined);
  });

  POSIX_ONLY('name-mismatch compares `name` with the whole stem, `\\` included', () => {
    const config = defaultLoadedConfig('/ws');
    const rules = (name: string) =>
      analyze({ text: `---\nname: ${JSON.stringify(name)}\n---\n`, path: '/ws/.polytoken/subagents/a\\b.md', config })
        .diagnostics.map((d) => d.code)
        .filter((code) => code === 'polytoken/name-mismatch');
    assert.deepStrictEqual(rules('a\\b'), []);
    assert.deepStrictEqual(rules('b'), ['polytoken/name-mismatch']);
  });
});

describe('file names: escaped for output', () => {
  it('printable escapes C0, DEL, C1 and the line separators, nothing else', () => {
    assert.strictEqual(
      printable('a\nb\rc\td\u0000e\u001b[2Jf\u007fg\u0085h\u009bi'),
      'a\\x0ab\\x0dc\\x09d\\x00e\\x1b[2Jf\\x7fg\\x85h\\x9bi',
    );
    assert.strictEqual(printable('p\u2028q\u2029r'), 'p\\u2028q\\u2029r');
    const kept = 'a\\b ..\\x0a é ÿ \u00a0 \ufffd 😀 `|*';
    assert.strictEqual(printable(kept), kept);
  });

  it('printableBytes shows valid UTF-8 as text and every other byte as \\xNN', () => {
    const bytes = (...b: number[]) => Buffer.from(b);
    assert.strictEqual(printableBytes(Buffer.from('bad.md')), 'bad.md');
    assert.strictEqual(printableBytes(bytes(0x62, 0xff, 0x2e, 0x6d, 0x64)), 'b\\xff.md');
    assert.strictEqual(
      printableBytes(Buffer.concat([Buffer.from('é'), bytes(0xe9), Buffer.from('😀\n')])),
      'é\\xe9😀\\x0a',
    );
    // Overlong forms, encoded surrogates, a truncated sequence, bytes above F4.
    assert.strictEqual(printableBytes(bytes(0xc0, 0xaf)), '\\xc0\\xaf');
    assert.strictEqual(printableBytes(bytes(0xed, 0xa0, 0x80)), '\\xed\\xa0\\x80');
    assert.strictEqual(printableBytes(bytes(0x61, 0xe2, 0x82)), 'a\\xe2\\x82');
    assert.strictEqual(printableBytes(bytes(0xf5, 0x80, 0x80, 0x80)), '\\xf5\\x80\\x80\\x80');
  });

  it('printableBytes takes each first and last character of every sequence length, and refuses the bytes around them', () => {
    const bytes = (...b: number[]) => Buffer.from(b);
    // The first and last code point of two, three and four bytes (U+0080 is a C1 control).
    for (const c of ['\u0080', '\u07ff', '\u0800', '\uffff', '\u{10000}', '\u{10ffff}'])
      assert.strictEqual(printableBytes(Buffer.from(`a${c}b`)), printable(`a${c}b`), c.codePointAt(0)!.toString(16));
    // A lone continuation byte, a lead byte cut by the end, an overlong lead, past U+10FFFF.
    assert.strictEqual(printableBytes(bytes(0x80)), '\\x80');
    assert.strictEqual(printableBytes(bytes(0x61, 0xc3)), 'a\\xc3');
    assert.strictEqual(printableBytes(bytes(0xc1, 0xbf)), '\\xc1\\xbf');
    assert.strictEqual(printableBytes(bytes(0xf4, 0x90, 0x80, 0x80)), '\\xf4\\x90\\x80\\x80');
    // A bad byte between valid runs: each run is decoded on its own.
    assert.strictEqual(printableBytes(bytes(0xc3, 0xa9, 0xff, 0xc3, 0xa9)), 'é\\xffé');
    // A bad byte right after a three-byte sequence: the sequence is taken by its own length.
    assert.strictEqual(printableBytes(bytes(0xe2, 0x82, 0xac, 0xff)), '€\\xff');
  });

  it('printableJson escapes C1 and line separators as \\uXXXX and stays the same JSON value', () => {
    const value = { path: 'a\u0085b\u2028c\nd\u001be' };
    const text = printableJson(value);
    assert.doesNotMatch(text, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/);
    assert.deepStrictEqual(JSON.parse(text), value);
    // Each end of the C1 range and both separators, written as escapes.
    assert.strictEqual(printableJson('\u007f\u009f\u2028\u2029'), '"\\u007f\\u009f\\u2028\\u2029"');
  });

  it('SARIF URIs: a `\\` in a name is %5C, never a separator; no lone surrogate breaks the encoding', () => {
    assert.strictEqual(
      relativeUri('.polytoken/subagents/..\\..\\victim\\zz.md'),
      '.polytoken/subagents/..%5C..%5Cvictim%5Czz.md',
    );
    assert.strictEqual(relativeUri('../x/a b\n.md'), '../x/a%20b%0A.md');
    assert.strictEqual(relativeUri('a/\ud800b.md'), 'a/%EF%BF%BDb.md');
  });

  it('GitHub workflow commands: GitHub escapes for %, CR, LF (and : , in properties), \\xNN for other controls', () => {
    assert.strictEqual(escapeData('50%\r\nnext\u001b[31m'), '50%25%0D%0Anext\\x1b[31m');
    assert.strictEqual(escapeProperty('a:b,c\nd\u0007'), 'a%3Ab%2Cc%0Ad\\x07');
  });
});
