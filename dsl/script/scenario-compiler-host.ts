/**
 * The TypeScript compiler host of a scenario's type check (type-check.ts). It reads what the
 * check needs and nothing else: files inside the scenario's folder (compared by real paths, as
 * the bundle's imports are: scenario-folder.ts), TypeScript's own lib files and barrage's
 * declaration files. Bare module names are not looked up (no node_modules walk): `barrage` is the
 * ambient module barrage.d.ts declares, and any other is refused earlier by the bundler.
 *
 * Imports the compiler cannot type by themselves get a declaration of what the bundle gives them
 * (docs/scenarios.md): `with { type: 'text' }` a string, `'bytes'` a Uint8Array, and `'json'` the
 * file's own type up to JSON_TYPED_BYTES, past which parsing it for its type would cost more than
 * the check (`any`). A copy of barrage.d.ts or sandbox-globals.d.ts in the folder (for the user's
 * editor) reads as empty: the check holds to the declarations of the barrage that runs it.
 */
import { statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import type TS from 'typescript';
import { isInsideFolder } from './scenario-folder.js';

/** A JSON import larger than this is typed `any` instead of by its content. */
const JSON_TYPED_BYTES = 1024 * 1024;

/** What each kind of non-code import is, as a declaration file's text. */
const DECLARED = {
  text: 'declare const text: string;\nexport default text;\n',
  bytes: 'declare const bytes: Uint8Array;\nexport default bytes;\n',
  json: 'declare const data: any;\nexport default data;\n',
} as const;

/** The host, and which of the program's files are the scenario's own (the ones checked). */
export interface ScenarioCompilerHost extends TS.CompilerHost {
  isScenarioFile(fileName: string): boolean;
}

/** A host for the scenario in `folder` (a real path); `declarations` are barrage's own. */
export function scenarioCompilerHost(
  ts: typeof TS,
  options: TS.CompilerOptions,
  folder: string,
  declarations: readonly string[],
): ScenarioCompilerHost {
  const base = ts.createCompilerHost(options, true);
  const libDir = dirname(base.getDefaultLibFileName(options));
  const ours = new Set(declarations.map((d) => resolve(d)));
  const names = new Set(declarations.map((d) => basename(d)));
  const virtual = new Map<string, string>();
  const inFolder = (file: string): boolean => isInsideFolder(folder, resolve(file));
  const allowed = (file: string): boolean =>
    virtual.has(file) ||
    ours.has(resolve(file)) ||
    resolve(file).startsWith(`${libDir}/`) ||
    inFolder(file);
  const copyOfOurs = (file: string): boolean =>
    names.has(basename(file)) && !ours.has(resolve(file));
  const host: ScenarioCompilerHost = {
    ...base,
    fileExists: (file) => allowed(file) && (virtual.has(file) || base.fileExists(file)),
    readFile: (file) => (allowed(file) ? base.readFile(file) : undefined),
    directoryExists: (dir) => inFolder(dir) && (base.directoryExists?.(dir) ?? false),
    getDirectories: (dir) => (inFolder(dir) ? (base.getDirectories?.(dir) ?? []) : []),
    getSourceFile(file, languageVersion, onError) {
      const text = virtual.get(file) ?? (copyOfOurs(file) ? '' : undefined);
      if (text !== undefined) return ts.createSourceFile(file, text, languageVersion);
      return allowed(file) ? base.getSourceFile(file, languageVersion, onError) : undefined;
    },
    resolveModuleNameLiterals(literals, containingFile, _redirected, compilerOptions) {
      return literals.map((literal) => {
        const name = literal.text;
        if (!name.startsWith('.') && !name.startsWith('/')) return { resolvedModule: undefined };
        const declared = declaredKind(ts, literal, resolve(dirname(containingFile), name));
        if (declared === undefined)
          return ts.resolveModuleName(name, containingFile, compilerOptions, host);
        const fileName = `${resolve(dirname(containingFile), name)}.barrage-${declared}.d.ts`;
        virtual.set(fileName, DECLARED[declared]);
        return {
          resolvedModule: { resolvedFileName: fileName, extension: ts.Extension.Dts },
        };
      });
    },
    isScenarioFile: (file) =>
      !virtual.has(file) &&
      !ours.has(resolve(file)) &&
      !copyOfOurs(file) &&
      !file.endsWith('.json') &&
      inFolder(file),
  };
  return host;
}

/** Which declaration stands in for the import of `path` (undefined: the compiler resolves it). */
function declaredKind(
  ts: typeof TS,
  literal: TS.StringLiteralLike,
  path: string,
): keyof typeof DECLARED | undefined {
  const type = attributeType(ts, literal);
  if (type === 'text' || type === 'bytes') return type;
  if (type !== 'json') return undefined;
  try {
    return path.endsWith('.json') && statSync(path).size <= JSON_TYPED_BYTES ? undefined : 'json';
  } catch {
    return undefined;
  }
}

/** The `type` import attribute of the import that `literal` names, if any. */
function attributeType(ts: typeof TS, literal: TS.StringLiteralLike): string | undefined {
  const parent = literal.parent;
  let elements: readonly TS.ObjectLiteralElementLike[] | readonly TS.ImportAttribute[] = [];
  if ((ts.isImportDeclaration(parent) || ts.isExportDeclaration(parent)) && parent.attributes)
    elements = parent.attributes.elements;
  else if (ts.isCallExpression(parent)) {
    // import('./x.txt', { with: { type: 'text' } })
    const second = parent.arguments[1];
    const withProperty =
      second !== undefined && ts.isObjectLiteralExpression(second)
        ? second.properties.find((p) => p.name?.getText() === 'with')
        : undefined;
    if (
      withProperty !== undefined &&
      ts.isPropertyAssignment(withProperty) &&
      ts.isObjectLiteralExpression(withProperty.initializer)
    )
      elements = withProperty.initializer.properties;
  }
  for (const element of elements) {
    const key = element.name;
    const value = ts.isImportAttribute(element)
      ? element.value
      : ts.isPropertyAssignment(element)
        ? element.initializer
        : undefined;
    if (key !== undefined && key.getText().replace(/['"]/g, '') === 'type' && value !== undefined)
      return ts.isStringLiteral(value) ? value.text : undefined;
  }
  return undefined;
}
