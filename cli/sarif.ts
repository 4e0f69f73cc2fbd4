import type * as Sarif from 'sarif';
import { pathToFileURL } from 'url';
import { RULES, ruleDocsUrl } from '../shared';
import type { SeverityName } from '../shared';
import { printableJson } from '../shared';
import { factsOf, type JsonDiagnostic, type JsonReport } from './report';

const LEVEL: Record<SeverityName, Sarif.ReportingConfiguration.level> = {
  error: 'error',
  warning: 'warning',
  information: 'note',
  hint: 'note',
};

/**
 * A relative path as a relative URI reference: each segment percent-encoded, `/` kept. A `\`
 * that is part of a name (POSIX) is `%5C`, never a separator; control characters are encoded
 * too, and a lone surrogate (a Windows name that is not valid UTF-16) as U+FFFD.
 */
export function relativeUri(path: string): string {
  return path
    .split('/')
    .map((s) => (s === '..' || s === '.' ? s : encodeURIComponent(s.replace(LONE_SURROGATE, '\uFFFD'))))
    .join('/');
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** A result's extra properties: the tool the catalog does not know (unknown-tool rules), whether `--fix` fixes it. */
function sarifFacts(d: JsonDiagnostic): Record<string, unknown> {
  const facts = factsOf(d);
  return {
    ...(facts.unknownTool !== undefined ? { unknownTool: facts.unknownTool } : {}),
    ...(facts.fixable ? { fixable: true } : {}),
  };
}

export interface SarifOptions {
  version: string;
  /** Absolute folder the relative paths are relative to (the current folder). */
  cwd: string;
  ioErrors?: { path: string; message: string }[];
}

/**
 * SARIF 2.1.0: one run, one reporting descriptor per rule of the registry (plus any
 * unregistered id that fired), one result per diagnostic with a 1-based region.
 */
export function formatSarif(report: JsonReport, options: SarifOptions): string {
  const descriptors: Sarif.ReportingDescriptor[] = RULES.map((r) => ({
    id: r.id,
    name: r.id,
    shortDescription: { text: r.summary },
    helpUri: ruleDocsUrl(r.id),
    defaultConfiguration: { level: LEVEL[r.defaultSeverity] },
    properties: { severity: r.defaultSeverity, ...(r.deprecated ? { tags: ['deprecated'] } : {}) },
  }));
  const index = new Map(descriptors.map((d, i) => [d.id, i]));
  const results: Sarif.Result[] = [];
  for (const f of report.files) {
    for (const d of f.diagnostics) {
      let ruleIndex = index.get(d.rule);
      if (ruleIndex === undefined) {
        ruleIndex =
          descriptors.push({ id: d.rule, shortDescription: { text: d.rule }, helpUri: ruleDocsUrl(d.rule) }) - 1;
        index.set(d.rule, ruleIndex);
      }
      results.push({
        ruleId: d.rule,
        ruleIndex,
        level: LEVEL[d.severity],
        message: { text: d.message },
        locations: [
          {
            physicalLocation: {
              artifactLocation: { uri: relativeUri(f.path), uriBaseId: 'SRCROOT' },
              region: {
                startLine: d.range.start.line + 1,
                startColumn: d.range.start.character + 1,
                endLine: d.range.end.line + 1,
                endColumn: d.range.end.character + 1,
              },
            },
          },
        ],
        properties: { severity: d.severity, dialect: f.dialect, ...sarifFacts(d) },
      });
    }
  }
  const root = pathToFileURL(options.cwd.endsWith('/') ? options.cwd : `${options.cwd}/`).href;
  const ioErrors = options.ioErrors ?? [];
  const log: Sarif.Log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'subagents',
            version: options.version,
            informationUri: 'https://github.com/subagents-tooling/subagents',
            rules: descriptors,
          },
        },
        originalUriBaseIds: { SRCROOT: { uri: root } },
        artifacts: report.files.map((f) => ({
          location: { uri: relativeUri(f.path), uriBaseId: 'SRCROOT' },
          properties: { dialect: f.dialect },
        })),
        invocations: [
          {
            executionSuccessful: ioErrors.length === 0,
            toolExecutionNotifications: ioErrors.map((e) => ({
              level: 'error',
              message: { text: `${e.path}: ${e.message}` },
            })),
          },
        ],
        columnKind: 'utf16CodeUnits',
        results,
      },
    ],
  };
  return printableJson(log) + '\n';
}
