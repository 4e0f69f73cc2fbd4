import * as fs from 'fs';
import * as path from 'path';
import { REPO } from '../harness';

/**
 * `vim.lsp.protocol.make_client_capabilities()` of Neovim 0.7.2 (Debian bookworm's package),
 * recorded with
 * `nvim --headless -u NONE -c 'lua io.open("caps.json","w"):write(vim.fn.json_encode(vim.lsp.protocol.make_client_capabilities()))' -c 'qa!'`.
 * It lists `resourceOperations` (rename, create, delete) but not `documentChanges`, cannot
 * register `workspace/didChangeWatchedFiles` and has no `window/showDocument`.
 */
export const NEOVIM_0_7_CAPABILITIES = JSON.parse(
  fs.readFileSync(path.join(REPO, 'test', 'lsp', 'clients', 'neovim-0.7.2.json'), 'utf8'),
);
