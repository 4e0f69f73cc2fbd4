/** The catalog of each dialect: its module's built-in tools and the configuration's. */
import type { Dialect } from '../basics';
import type { SubagentsConfig } from '../config/types';
import { dialectModule } from '../dialects';
import type { DialectModule } from '../dialects/module';
import { Catalog } from './catalog';
import { onForgetMemos } from '../memos';

/**
 * Catalogs depend only on the configuration, so they are cached per configuration
 * object: the server builds one per configuration change, not per keystroke.
 */
let cache = new WeakMap<SubagentsConfig, Map<DialectModule, Catalog>>();
onForgetMemos(() => (cache = new WeakMap()));

export function catalogFor(dialect: Dialect, config: SubagentsConfig): Catalog {
  const module = dialectModule(dialect);
  if (!module) throw new Error(`catalogFor: no dialect \`${dialect}\` is registered.`);
  let perConfig = cache.get(config);
  if (!perConfig) cache.set(config, (perConfig = new Map()));
  let catalog = perConfig.get(module);
  if (!catalog) perConfig.set(module, (catalog = new Catalog(dialect, module.tools, config)));
  return catalog;
}
