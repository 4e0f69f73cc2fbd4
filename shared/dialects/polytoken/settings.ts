/** The `polytoken:` section of `.subagents.yaml` (docs/runtimes/polytoken.md). */
import { sectionOf, type SubagentsConfig } from '../../config/types';
import type { DialectSection } from '../module';

export interface PolytokenSettings {
  /** The calling facet's tools, granted when `inherit_tools` is true. */
  facetTools: string[];
  /** Extra discovery folders, in order, relative to the configuration's folder. */
  subagentDirs: string[];
  /** The global folder, when the configuration moves it. */
  globalDir?: string;
}

export const polytokenSection: DialectSection<PolytokenSettings> = {
  schema: {
    description:
      "Polytoken settings: the calling facet's tools (for `inherit_tools`), extra discovery folders, the global folder.",
    type: 'object',
    additionalProperties: false,
    properties: {
      facetTools: {
        description: "The calling facet's tools, granted when inherit_tools is true.",
        $ref: '#/definitions/names',
      },
      subagentDirs: {
        description: "Extra discovery folders, in order, relative to this file's folder.",
        $ref: '#/definitions/names',
      },
      globalDir: {
        description: 'The global subagents folder (default: $XDG_CONFIG_HOME/polytoken/subagents).',
        type: 'string',
        minLength: 1,
      },
    },
  },
  read(raw) {
    const r = (raw ?? {}) as Partial<PolytokenSettings>;
    return { facetTools: r.facetTools ?? [], subagentDirs: r.subagentDirs ?? [], globalDir: r.globalDir };
  },
  toolLists: ['facetTools'],
};

/** The Polytoken settings of a configuration (the defaults without a `polytoken:` section). */
export function polytokenSettings(config: SubagentsConfig): PolytokenSettings {
  return sectionOf(config, 'polytoken', polytokenSection.read);
}
