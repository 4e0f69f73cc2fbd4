/**
 * The `check --cache` file: a first line that signs the rest (HMAC-SHA256 with the user's own
 * key, cache-key.ts), then JSON. The file usually sits in the working tree, so it is read as
 * hostile input: a regular file only (a FIFO, a device or a link out of the workspace is not
 * opened for long), at most MAX_CACHE_BYTES, its signature checked before a byte is parsed,
 * and its whole structure checked before anything in it is used. A file that fails a check is
 * ignored with a one-line note and written anew; a missing one, or one this user's checker
 * wrote in another format or build, silently.
 */
import { createHmac, timingSafeEqual } from 'crypto';
import { sizeOverLimit } from '../../shared';
import type { CacheOptions } from './check-types';
import { isStamp, type Stamp } from './file-digest';
import { RefusedFileError, readRegularBytes } from '../../shared/node';
import { landingOf, type WritePlace } from './safe-write';
import { describeError } from '../../shared/node';
import { mark } from '../phase-marks';

/** Bumped when the layout of the file changes. */
export const FORMAT = 10;

/** About 230,000 definitions' worth: a larger file is neither read nor written. */
export const MAX_CACHE_BYTES = 64 * 1024 * 1024;

/** A diagnostic as stored: what the CLI prints of it. */
export type StoredDiagnostic = [
  startLine: number,
  startCharacter: number,
  endLine: number,
  endCharacter: number,
  severity: number,
  rule: string,
  message: string,
  data?: StoredData,
];

/** The facts of its `data` the reports print (report.ts `DiagnosticFacts`): `--fix` fixes it, the unknown tool. */
export interface StoredData {
  fixable?: true;
  tool?: string;
}

/**
 * One file: sha256 of its bytes, index of its context, its diagnostics, for Polytoken and
 * Picasso the name it registers under, and its stamp when it was read well after its last
 * change (file-digest.ts: unchanged, it is not read again).
 */
export type Entry = [
  hash: string,
  context: number,
  diagnostics: StoredDiagnostic[],
  name?: string | null,
  stamp?: Stamp,
];

/** A configuration file: sha256 of its text (it is parsed again every run). */
export type ConfigEntry = [hash: string];

export interface CacheFile {
  format: number;
  checker: string;
  /** Dialect and configuration identities, referred to by index. */
  contexts: string[];
  /**
   * Per `<kind> <name>` that more than one path registers under: the paths of those Polytoken
   * definitions or Picasso roles, sorted, one a line. A name missing here had one path: the file's own.
   */
  groups: Record<string, string>;
  configs: Record<string, ConfigEntry>;
  files: Record<string, Entry>;
}

export const emptyCache = (checker: string): CacheFile => ({
  format: FORMAT,
  checker,
  contexts: [],
  groups: {},
  configs: {},
  files: {},
});

/** Where the cache may be read and written: in the workspace (a path given outside it is the user's). */
export const cachePlace = (options: CacheOptions): WritePlace => ({
  roots: options.workspace ?? [],
  userPathsOutside: true,
});

const sign = (key: Buffer, json: Buffer | string) => createHmac('sha256', key).update(json).digest();

/** The file's bytes: the signature line, then the JSON (written as ASCII, see asciiJson). */
export function serializeCache(cache: CacheFile, key: Buffer): Buffer {
  // ASCII, so one byte a character: encoded once as latin1 (several times faster than UTF-8), signed and written as is.
  const json = Buffer.from(asciiJson(cache), 'latin1');
  return Buffer.concat([Buffer.from(`${sign(key, json).toString('base64')}\n`, 'latin1'), json]);
}

/**
 * JSON with every character past ASCII escaped (`\u00e9`): the same value, and a file read back as latin1.
 * The escape pass runs only when there is such a character.
 */
function asciiJson(value: unknown): string {
  const json = JSON.stringify(value);
  // Stryker disable next-line Regex: the escape pass leaves ASCII as it is; the test only spares the pass
  return !/[^\0-\x7f]/.test(json)
    ? json
    : json.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * The previous run's cache, or an empty one with, when the file was there but not usable, why;
 * `unwritable` when the path is a link out of the workspace (it is not written either).
 */
export function loadCache(options: CacheOptions): { cache: CacheFile; note?: string; unwritable?: true } {
  const fresh = { cache: emptyCache(options.checker) };
  const ignored = (why: string) => ({
    ...fresh,
    note: `ignoring the cache ${options.file}: ${why}; it will be rebuilt`,
  });
  const landing = landingOf(options.file, cachePlace(options));
  if ('skipped' in landing)
    return { ...fresh, note: `not using the cache ${options.file}: ${landing.skipped}`, unwritable: true };
  if ('failed' in landing || !landing.stat) return fresh; // no file (or no folder) yet
  let bytes: Buffer;
  try {
    bytes = readRegularBytes(landing.path, MAX_CACHE_BYTES, true);
  } catch (e) {
    if (e instanceof RefusedFileError && e.tooLarge)
      return ignored(`is ${sizeOverLimit(e.tooLarge.bytes, e.tooLarge.limit)}`);
    return ignored(e instanceof RefusedFileError ? e.message : describeError(e));
  }
  mark('cache.read');
  // The signature is checked over the bytes: nothing is decoded before it matches.
  const eol = bytes.indexOf(10);
  // Stryker disable next-line ConditionalExpression,EqualityOperator: an empty or missing first line decodes to no bytes, refused below all the same
  const mac = eol > 0 ? Buffer.from(bytes.toString('latin1', 0, eol), 'base64') : undefined;
  const json = bytes.subarray(eol + 1);
  if (!mac || mac.length !== 32 || !timingSafeEqual(mac, sign(options.key, json)))
    return ignored('is not signed with your key (written by someone else, or by an older version)');
  mark('cache.verify');
  let parsed: unknown;
  try {
    // Written as ASCII (see asciiJson): latin1 decodes it exactly, several times faster than UTF-8.
    parsed = JSON.parse(json.toString('latin1'));
  } catch {
    return ignored('is not JSON');
  }
  mark('cache.parse');
  const header = isObject(parsed) ? parsed : {};
  if (header.format !== FORMAT || header.checker !== options.checker) return fresh; // ours, from another build
  const wrong = wrongPart(parsed as CacheFile);
  mark('cache.check');
  return wrong ? ignored(`its ${wrong} is not what this checker writes`) : { cache: parsed as CacheFile };
}

// The structure, checked whole before use: a file that passes is one this checker could have written.
type Check = (v: unknown) => boolean;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isString: Check = (v) => typeof v === 'string';
const isCount: Check = (v) => Number.isSafeInteger(v) && (v as number) >= 0;
const arrayOf =
  (check: Check): Check =>
  (v) =>
    Array.isArray(v) && v.every(check);
const recordOf =
  (check: Check): Check =>
  (v) =>
    isObject(v) && Object.keys(v).every((k) => check(v[k]));
const strings = arrayOf(isString);

const isStoredDiagnostic: Check = (d) =>
  Array.isArray(d) &&
  (d.length === 7 || d.length === 8) &&
  isCount(d[0]) &&
  isCount(d[1]) &&
  isCount(d[2]) &&
  isCount(d[3]) &&
  [1, 2, 3, 4].includes(d[4]) &&
  typeof d[5] === 'string' &&
  typeof d[6] === 'string' &&
  (d.length === 7 || isStoredData(d[7]));

const isDiagnosticList = arrayOf(isStoredDiagnostic);

const isStoredData: Check = (v) =>
  isObject(v) &&
  Object.keys(v).every((k) => (k === 'fixable' && v[k] === true) || (k === 'tool' && typeof v[k] === 'string'));

const entryOf =
  (contexts: number): Check =>
  (e) =>
    Array.isArray(e) &&
    e.length <= 5 &&
    typeof e[0] === 'string' &&
    isCount(e[1]) &&
    e[1] < contexts &&
    isDiagnosticList(e[2]) &&
    (e.length < 4 || e[3] === null || typeof e[3] === 'string') &&
    (e.length < 5 || isStamp(e[4]));

/** The first part of the file that is not as this checker writes it, or undefined. */
function wrongPart(cache: CacheFile): string | undefined {
  if (Object.keys(cache).length !== 6) return 'layout';
  if (!strings(cache.contexts)) return 'list of contexts';
  if (!recordOf(isString)(cache.groups)) return 'list of same-name groups';
  if (!recordOf((c) => Array.isArray(c) && c.length === 1 && isString(c[0]))(cache.configs))
    return 'list of configurations';
  if (!recordOf(entryOf(cache.contexts.length))(cache.files)) return 'list of files';
  return undefined;
}
