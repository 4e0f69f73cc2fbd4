/**
 * Configuration discovery on the disk (shared/config/resolver.ts with the Node host): the CLI's
 * and the tests'. `env` gives the home folders of the global folder (default: this process's).
 */
import {
  ConfigResolver as HostConfigResolver,
  globalDirFor,
  loadConfigFile as loadWithHost,
  type ConfigOptions as HostConfigOptions,
} from '../config/resolver';
import type { LoadedConfig } from '../config/types';
import { nodeHost, nodeWorkspaceHost } from './host';

export { unreadableConfigFinding } from '../config/resolver';

export interface ConfigOptions extends Partial<HostConfigOptions> {
  env?: NodeJS.ProcessEnv;
}

const withHost = (options: ConfigOptions): HostConfigOptions => ({
  ...options,
  host: options.host ?? (options.env ? nodeHost(options.env) : nodeWorkspaceHost),
});

/** The global folder: configuration, then setting, then its place under XDG. */
export function resolveGlobalDir(
  configured: string | undefined,
  options: ConfigOptions,
  configDir: string,
): string | undefined {
  return globalDirFor(configured, withHost(options), configDir);
}

/** Reads and parses one configuration file from the disk; an unreadable one is reported like a malformed one. */
export function loadConfigFile(file: string, options: ConfigOptions): LoadedConfig {
  return loadWithHost(file, withHost(options));
}

/** The nearest `.subagents.yaml` walking up, read from the disk. */
export class ConfigResolver extends HostConfigResolver {
  constructor(options: ConfigOptions = {}) {
    super(withHost(options));
  }
}
