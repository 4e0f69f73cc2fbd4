/** The smallest shared vocabulary: a leaf module every other module may import. */

/**
 * A dialect id: the id of a registered `DialectModule` (shared/dialects/index.ts lists them).
 * A plain string at the engine's boundary, so that a dialect registered at run time fits.
 */
export type Dialect = string;

/** The kind of a checked file: a dialect id or `config` (the project configuration). */
export type FileKind = Dialect;

export type SeverityName = 'error' | 'warning' | 'information' | 'hint';
export type SeveritySetting = SeverityName | 'off';

/**
 * The folder of a rule's docs page and the part of its id before the slash: a dialect id, `syntax`, `config` or
 * `directive`.
 */
export type RuleGroup = string;
