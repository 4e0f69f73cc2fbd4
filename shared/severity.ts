/** Severity names and the LSP's numbers for them. */
import { DiagnosticSeverity } from 'vscode-languageserver-types';
import type { SeverityName } from './basics';

export const SEVERITY: Record<SeverityName, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

export function severityName(s: DiagnosticSeverity | undefined): SeverityName {
  return s === DiagnosticSeverity.Warning
    ? 'warning'
    : s === DiagnosticSeverity.Information
      ? 'information'
      : s === DiagnosticSeverity.Hint
        ? 'hint'
        : 'error';
}
