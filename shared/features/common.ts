/** The analysed definition file behind an editor request, as the features and the dialects' editor hooks see it. */
import { dialectModule } from '../dialects';
import type { FeatureFile } from '../dialects/module';
import { toolMarkdown } from '../docs/tools';
import type { Analysis } from '../types';

/**
 * The definition file behind an analysis, with its dialect's module and model; undefined for configuration and
 * unrecognized files.
 */
export function featureFile(analysis: Analysis | undefined): FeatureFile | undefined {
  const ctx = analysis?.context;
  const module = ctx && analysis.kind ? dialectModule(analysis.kind) : undefined;
  if (!ctx || !module || !ctx.model) return undefined;
  return {
    dialect: module.id,
    module,
    ctx,
    model: ctx.model,
    text: ctx.file.source.text,
    root: ctx.file.root,
    describeTool: (name, near) => toolMarkdown(module.id, ctx.catalog, name, near),
  };
}
