/**
 * The dialect registry: the built-in modules in one list, and `registerDialect` for one added
 * at run time (a test, a future plug-in). `DIALECTS` and `DIALECT_MODULES` are live views of it:
 * a registered dialect appears in them, a disposed one leaves them.
 */
import type { Dialect } from '../basics';
import type { DialectModule } from './module';
import { polytoken } from './polytoken';
import { profy } from './profy';
import { picasso } from './picasso';

/** The built-in runtimes, in the order paths are recognized (the first match wins) and rules are listed. */
const BUILTIN = [polytoken, profy, picasso] as const;

/** The id of a built-in dialect. */
export type BuiltinDialect = (typeof BUILTIN)[number]['id'];

/** How many dialects are built in: registered ones come after them. */
export const BUILTIN_DIALECT_COUNT = BUILTIN.length;

const modules: DialectModule[] = [...BUILTIN];

/** Every dialect id, built-in first, then registered ones in order of registration. */
export const DIALECTS: readonly Dialect[] = modules.map((m) => m.id);

/** Every module by dialect id. */
export const DIALECT_MODULES: Readonly<Record<Dialect, DialectModule>> = Object.fromEntries(
  modules.map((m) => [m.id, m]),
);

/** Told after every registration and disposal (the rule list and the configuration schema follow the modules). */
const listeners: (() => void)[] = [];

export function onDialectsChanged(listener: () => void): void {
  listeners.push(listener);
}

function changed(): void {
  for (const listener of listeners) listener();
}

export function dialectModules(): readonly DialectModule[] {
  return modules;
}

export function dialectModule(id: Dialect): DialectModule | undefined {
  return Object.prototype.hasOwnProperty.call(DIALECT_MODULES, id) ? DIALECT_MODULES[id] : undefined;
}

/** A dialect's display title (`Polytoken`); the id itself for one no module has. */
export function dialectTitle(id: Dialect): string {
  return dialectModule(id)?.title ?? id;
}

/** Ids no dialect may take: they name the generic rule groups (and `config` the kind of `.subagents.yaml`). */
const RESERVED_IDS = new Set(['config', 'syntax', 'directive']);

/** Why a module cannot be registered; undefined when it can. */
function refusal(module: DialectModule): string | undefined {
  if (!/^[a-z][a-z0-9-]*$/.test(module.id))
    return `\`${module.id}\` is not a dialect id (lower-case letters, digits, dashes)`;
  if (RESERVED_IDS.has(module.id)) return `\`${module.id}\` is reserved`;
  if (dialectModule(module.id)) return `a dialect \`${module.id}\` is already registered`;
  const ids = new Set<string>();
  for (const meta of module.ruleMeta) {
    if (!meta.id.startsWith(`${module.id}/`) || meta.group !== module.id)
      return `its rule \`${meta.id}\` is not in its group \`${module.id}/\``;
    if (ids.has(meta.id)) return `its rule \`${meta.id}\` is listed twice`;
    ids.add(meta.id);
  }
  for (const rule of module.rules)
    for (const id of rule.ids) if (!ids.has(id)) return `its rule \`${id}\` has no metadata in \`ruleMeta\``;
  return undefined;
}

/**
 * Adds a dialect after the built-in ones (and those registered before it). Its files are then
 * recognized, checked, resolved, indexed and served like a built-in dialect's. `dispose()`
 * removes it again.
 */
export function registerDialect(module: DialectModule): { dispose(): void } {
  const why = refusal(module);
  if (why) throw new Error(`registerDialect: ${why}.`);
  modules.push(module);
  (DIALECTS as Dialect[]).push(module.id);
  (DIALECT_MODULES as Record<Dialect, DialectModule>)[module.id] = module;
  changed();
  let disposed = false;
  return {
    dispose() {
      if (disposed) return;
      disposed = true;
      const at = modules.indexOf(module);
      if (at >= 0) modules.splice(at, 1);
      const id = (DIALECTS as Dialect[]).indexOf(module.id);
      if (id >= 0) (DIALECTS as Dialect[]).splice(id, 1);
      delete (DIALECT_MODULES as Record<Dialect, DialectModule>)[module.id];
      changed();
    },
  };
}
