/** The `profy:` section of `.subagents.yaml` (docs/runtimes/profy.md). */
import { sectionOf, type SubagentsConfig } from '../../config/types';
import type { DialectSection } from '../module';

export interface ProfySettings {
  /** The main agent's toolset for Expert files that declare none. */
  mainTools?: string[];
  /** Platform builtin subagent names; they come before an Expert's own. */
  builtinSubagents: string[];
}

export const profySection: DialectSection<ProfySettings> = {
  schema: {
    description:
      "Profy settings: the main agent's toolset (for Experts that declare no `tools`) and the platform's builtin subagents.",
    type: 'object',
    additionalProperties: false,
    properties: {
      mainTools: {
        description: "The main agent's toolset for Expert files that declare none.",
        $ref: '#/definitions/names',
      },
      builtinSubagents: {
        description: "Platform builtin subagent names; they come before an Expert's own.",
        $ref: '#/definitions/names',
      },
    },
  },
  read(raw) {
    const r = (raw ?? {}) as Partial<ProfySettings>;
    // Stryker disable next-line ArrayDeclaration: the placeholder a mutant adds holds spaces, so no subagent that loads could be named so
    return { mainTools: r.mainTools, builtinSubagents: r.builtinSubagents ?? [] };
  },
  toolLists: ['mainTools'],
};

/** The Profy settings of a configuration (the defaults without a `profy:` section). */
export function profySettings(config: SubagentsConfig): ProfySettings {
  return sectionOf(config, 'profy', profySection.read);
}
