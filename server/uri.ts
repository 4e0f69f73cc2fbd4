/** URI ⇄ path conversions shared by the server's modules. */
import { URI } from 'vscode-uri';
import { toPosix } from '../shared';

/** The POSIX path of a URI (`file:` URIs by their file-system path, others by their path); undefined if it does not parse. */
export function uriToPath(uri: string): string | undefined {
  try {
    const u = URI.parse(uri);
    return toPosix(u.scheme === 'file' ? u.fsPath : u.path);
  } catch {
    return undefined;
  }
}

export const pathToUri = (path: string): string => URI.file(path).toString();
