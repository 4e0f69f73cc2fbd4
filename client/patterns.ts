/**
 * The language client's document selector follows the configuration: the default globs
 * (the package's activation globs, selector.ts) plus the patterns the server sends in `subagents/documentPatterns`
 * (`files:`
 * globs, `polytoken.subagentDirs` in the workspace). vscode-languageclient reads its selector
 * when it starts, so a change restarts the client; the server rebuilds its index and publishes
 * again, and the extension's own state (previews, status bar) stays. The last patterns are kept
 * in the workspace state, so the next session starts with them and does not restart at once.
 */
import * as vscode from 'vscode';
import type { BaseLanguageClient as LanguageClient } from 'vscode-languageclient';
import { DOCUMENT_PATTERNS_NOTIFICATION, type DocumentPattern, type DocumentPatternsParams } from '../shared/protocol';
import { documentSelector } from './selector';

const STATE_KEY = 'subagents.documentPatterns';

/** Stops and starts the client again (the browser's client has no `restart` of its own; it starts a new worker). */
export async function restartClient(client: LanguageClient): Promise<void> {
  await client.stop();
  await client.start();
}

type LspFilter = { pattern: string | DocumentPattern };

function validPatterns(value: unknown): DocumentPattern[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((p): p is DocumentPattern => typeof p?.baseUri === 'string' && typeof p?.pattern === 'string')
    .map((p) => ({ baseUri: p.baseUri, pattern: p.pattern }));
}

export class DocumentPatterns implements vscode.Disposable {
  private patterns: DocumentPattern[];
  private restarting: Promise<void> = Promise.resolve();
  private subscription: vscode.Disposable | undefined;

  private readonly defaults: LspFilter[];

  constructor(
    private readonly state: vscode.Memento,
    defaultGlobs: readonly string[],
  ) {
    this.patterns = validPatterns(state.get(STATE_KEY));
    this.defaults = documentSelector(defaultGlobs);
  }

  /** The selector for vscode-languageclient (LSP shapes: a relative pattern is `{ baseUri, pattern }`). */
  clientSelector(): LspFilter[] {
    return [...this.defaults, ...this.patterns.map((pattern) => ({ pattern }))];
  }

  /** Whether the language server is handed this document. */
  matches(doc: vscode.TextDocument): boolean {
    const extra = this.patterns.map((p) => ({
      pattern: new vscode.RelativePattern(vscode.Uri.parse(p.baseUri), p.pattern),
    }));
    return vscode.languages.match([...(this.defaults as { pattern: string }[]), ...extra], doc) > 0;
  }

  /** The extra patterns in force (for tests). */
  current(): DocumentPattern[] {
    return this.patterns.map((p) => ({ ...p }));
  }

  /** Listens for the server's patterns; `log` says when the client restarts for them. */
  attach(client: LanguageClient, log: (message: string) => void): void {
    this.subscription = client.onNotification(DOCUMENT_PATTERNS_NOTIFICATION, (params: DocumentPatternsParams) => {
      const next = validPatterns(params?.patterns);
      if (JSON.stringify(next) === JSON.stringify(this.patterns)) return;
      this.patterns = next;
      void this.state.update(STATE_KEY, next);
      // One restart at a time; a restart picks up the newest patterns.
      this.restarting = this.restarting.then(async () => {
        const selector = this.clientSelector();
        if (JSON.stringify(selector) === JSON.stringify(client.clientOptions.documentSelector)) return;
        client.clientOptions.documentSelector = selector;
        log(
          `Definition files changed (${next.length} pattern${next.length === 1 ? '' : 's'} beyond the defaults): restarting the language client.`,
        );
        try {
          await restartClient(client);
        } catch (e) {
          log(`The language client did not restart: ${e instanceof Error ? e.message : String(e)}`);
        }
      });
    });
  }

  /** Resolves when no restart is pending. */
  settled(): Promise<void> {
    return this.restarting;
  }

  dispose(): void {
    this.subscription?.dispose();
  }
}
