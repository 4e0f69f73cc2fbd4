import { didYouMean, UsageError } from './args';
import { commandCheck } from './check';
import { commandResolve, commandRules } from './commands';
import { errorLine, type Io } from './common';
import { HELP } from './help';

/** The commands, for did-you-mean (`chek` → `check`). */
const COMMANDS = ['check', 'resolve', 'rules', 'diff', 'lsp', 'mcp', 'help', 'init', 'new'];

/** Runs one command line; undefined means "keep running" (the language server). */
export function main(argv: string[], io: Io): number | undefined {
  try {
    const [command, ...rest] = argv;
    switch (command) {
      case undefined:
        throw new UsageError('missing command; run `subagents --help`');
      case '-h':
      case '--help':
      case 'help':
        io.out(HELP.main);
        return 0;
      case '-v':
      case '--version':
        io.out(`${io.version}\n`);
        return 0;
      case 'check':
        return commandCheck(rest, io);
      case 'resolve':
        return commandResolve(rest, io);
      case 'rules':
        return commandRules(rest, io);
      case 'init':
        return (require('./scaffold') as typeof import('./scaffold')).commandInit(rest, io);
      case 'new':
        return (require('./scaffold') as typeof import('./scaffold')).commandNew(rest, io);
      case 'diff':
        // Loaded only here, like the server: the other commands do not need it.
        return (require('./diff') as typeof import('./diff')).commandDiff(rest, io);
      case 'lsp': {
        if (rest.includes('-h') || rest.includes('--help')) {
          io.out(HELP.lsp);
          return 0;
        }
        const unknown = rest.find((a) => a !== '--stdio');
        if (unknown !== undefined)
          throw new UsageError(`unknown option ${unknown} for \`subagents lsp\`; run \`subagents lsp --stdio\``);
        if (!rest.includes('--stdio'))
          throw new UsageError('lsp needs --stdio (the only transport); run `subagents lsp --stdio`');
        // Loaded only here: the server is not needed by the other commands.
        // eslint-disable-next-line @typescript-eslint/no-var-requires
        const { runLsp } = require('./lsp') as typeof import('./lsp');
        return runLsp(rest);
      }
      case 'mcp':
        // Loaded only here, like the language server: the SDK is not needed by the other commands.
        return (require('./mcp') as typeof import('./mcp')).runMcp(rest, io);
      default:
        throw new UsageError(
          command.startsWith('-')
            ? `unknown option ${command}; run \`subagents --help\``
            : `unknown command "${command}"${didYouMean(command, COMMANDS)}; run \`subagents --help\``,
        );
    }
  } catch (e) {
    if (e instanceof UsageError) io.err(errorLine(e.message));
    else io.err(errorLine(`internal error: ${oneLine(e)}`));
    return 2;
  }
}

function oneLine(e: unknown): string {
  const text = e instanceof Error ? e.message || e.name : String(e);
  return text.split('\n')[0];
}
