/** Inputs for the fix-round suites (test/fix-round*.test.ts): files whose fixes make a round decide. */
import { defaultLoadedConfig, parseConfig } from '../../shared/config/config';
import type { DocumentInput } from '../../shared/types';

export const WS = '/ws';
export const PROFY = `${WS}/big.expert.json`;
export const ROLE_DIR = `${WS}/apps/cli/agents`;

/** A file under the workspace, with the default configuration or `configText` as its `.subagents.yaml`. */
export function inputOf(path: string, text: string, configText?: string): DocumentInput {
  const config = configText ? parseConfig(configText, `${WS}/.subagents.yaml`, WS) : defaultLoadedConfig(WS);
  return { text, path, config, root: WS };
}

/** A Picasso role named `name`, with every key it needs. */
export const role = (name: string) =>
  `name: ${name}\ninvocation: "@${name}"\nmodel: m\ndescription: d\nwhen_to_use: w\noutput_schema: s\ntools: [read_file, grep]\nmax_steps: 30\nmax_depth: 0\n`;
