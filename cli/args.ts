import { nearestName } from '../shared';

/** A usage error: the CLI prints `subagents: <message>` and exits 2. */
export class UsageError extends Error {}

/** ` (did you mean \`--format\`?)` when a candidate is close to what was written, else nothing. */
export function didYouMean(written: string, candidates: Iterable<string>): string {
  const near = nearestName(written.toLowerCase(), candidates, Math.min(3, Math.max(1, Math.floor(written.length / 3))));
  return near === undefined ? '' : ` (did you mean \`${near}\`?)`;
}

export interface OptionSpec {
  /** Options that take a value (`--format json` or `--format=json`). */
  values: readonly string[];
  /** Options without a value. */
  flags: readonly string[];
  /** Short spellings: `-f` for `--format`. */
  aliases?: Readonly<Record<string, string>>;
}

export interface ParsedArgs {
  positionals: string[];
  values: Record<string, string>;
  flags: Set<string>;
  help: boolean;
  /** How many positionals came before `--`, when it was given. */
  dashDash?: number;
}

/**
 * Parses one command's arguments. Unknown options and missing values are usage errors;
 * `--` ends the options (so a path may start with `-`). `-h`/`--help` anywhere asks for help.
 */
export function parseArgs(args: readonly string[], spec: OptionSpec, command: string): ParsedArgs {
  const parsed: ParsedArgs = { positionals: [], values: {}, flags: new Set(), help: false };
  let i = 0;
  while (i < args.length) {
    const arg = args[i++];
    if (arg === '--') {
      parsed.dashDash = parsed.positionals.length;
      for (const rest of args.slice(i)) parsed.positionals.push(rest);
      break;
    }
    if (arg === '-h' || arg === '--help') {
      parsed.help = true;
      continue;
    }
    if (!arg.startsWith('-') || arg === '-') {
      parsed.positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const written = eq > 0 && arg.startsWith('--') ? arg.slice(0, eq) : arg;
    const name = spec.aliases?.[written] ?? written;
    if (spec.values.includes(name)) {
      let value: string | undefined;
      if (eq > 0 && written !== arg) value = arg.slice(eq + 1);
      else if (i < args.length) value = args[i++];
      if (value === undefined || value === '') throw new UsageError(`option ${name} needs a value`);
      parsed.values[name] = value;
      continue;
    }
    if (spec.flags.includes(name)) {
      if (written !== arg) throw new UsageError(`option ${name} takes no value`);
      parsed.flags.add(name);
      continue;
    }
    const known = [...spec.values, ...spec.flags, '--help'];
    throw new UsageError(
      `unknown option ${written} for \`subagents ${command}\`${didYouMean(written, known)}; run \`subagents ${command} --help\``,
    );
  }
  return parsed;
}

/** The value of `--format` (in any case: `SARIF` is `sarif`), checked against the formats a command knows. */
export function formatOption<T extends string>(parsed: ParsedArgs, allowed: readonly T[], fallback: T): T {
  const given = parsed.values['--format'];
  if (given === undefined) return fallback;
  const value = given.toLowerCase();
  if (!(allowed as readonly string[]).includes(value)) {
    throw new UsageError(
      `unknown format "${given}" for --format${didYouMean(value, allowed)}; use ${allowed.join(', ')}`,
    );
  }
  return value as T;
}

/** `--max-warnings N`: a whole number of at least 0 (`-1`, as in ESLint, means no limit). */
export function maxWarningsOption(parsed: ParsedArgs): number | undefined {
  const value = parsed.values['--max-warnings'];
  if (value === undefined) return undefined;
  if (!/^(0|[1-9][0-9]*|-1)$/.test(value) || !Number.isSafeInteger(Number(value))) {
    throw new UsageError(`--max-warnings needs a whole number of at least 0, not "${value}"`);
  }
  const n = Number(value);
  return n < 0 ? undefined : n;
}
