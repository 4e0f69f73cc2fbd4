/** Reading the repository's TypeScript sources as the architecture tests do: with the TypeScript parser. */
import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';

export const ROOT = path.resolve(__dirname, '../../..');

/** Every `.ts` file below a folder of the repository, relative to the root with `/`. */
export function sourceFiles(folder: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(rel);
    }
  };
  walk(folder);
  return out.sort();
}

/** The module specifiers a source text imports (static, re-exported, dynamic, required). */
export function importsOf(text: string, fileName = 'file.ts'): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.ES2022, false);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier)) found.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(node.expression) && node.expression.text === 'require')) &&
      node.arguments.length === 1 &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const e = node.moduleReference.expression;
      if (ts.isStringLiteral(e)) found.push(e.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The repository-relative module (without extension) a relative specifier of `file` names. */
export function target(file: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  return path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)).replace(/\.(js|ts)$/, '');
}

/** The repository file (`shared/x.ts`, `shared/dialects/index.ts`) a relative specifier of `file` imports; undefined for a package or a JSON file. */
export function importedFile(file: string, specifier: string): string | undefined {
  const t = target(file, specifier);
  if (t === undefined || t.endsWith('.json')) return undefined;
  return fs.existsSync(path.join(ROOT, `${t}.ts`)) ? `${t}.ts` : `${t}/index.ts`;
}
