/**
 * The engine's Node-only public surface: configuration discovery, the file walker and reading
 * files (regular files only, within the size limit). Everything else is in `../index.ts`.
 */
export {
  ConfigResolver,
  loadConfigFile,
  resolveGlobalDir,
  unreadableConfigFinding,
  type ConfigOptions,
} from './config-loader';
export { homesOf, nodeHost, nodeWorkspaceHost } from './host';
export { isRegularFile, readRegularBytes, readRegularFile, RefusedFileError } from './read';
export {
  describeError,
  inSkippedFolder,
  undecodableMessage,
  walkFiles,
  walkFolders,
  type UndecodableFile,
  type WalkProblem,
} from './walk';
