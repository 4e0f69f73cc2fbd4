/** The smallest shared vocabulary: a leaf module every other module may import. */
export type Dialect = 'polytoken' | 'profy' | 'picasso';
export const DIALECTS: readonly Dialect[] = ['polytoken', 'profy', 'picasso'];

/** The kind of a checked file: a definition dialect or the project configuration. */
export type FileKind = Dialect | 'config';

export type SeverityName = 'error' | 'warning' | 'information' | 'hint';
export type SeveritySetting = SeverityName | 'off';

/** The folder of a rule's docs page and the part of its id before the slash. */
export type RuleGroup = Dialect | 'syntax' | 'config' | 'directive';
