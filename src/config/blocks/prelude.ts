import { dirname } from 'node:path';
import type { Diagnostic } from '../../diagnostics';
import type { TenantformError } from '../../errors';
import { contextFor, type LocalConversion } from '../expression-scope';
import { declaredNames, parseLocals } from '../language';
import { decodeDocument, documentShapeProblems } from '../model';
import { expandModules } from '../modules';
import type { LoadLocation } from '../configuration';
import { inputVariables } from '../variables';

/**
 * The blocks every other block may use, read first: the variables and their values, the module
 * calls expanded, the locals, and the context they make before any object is known. `doc` is the
 * document decoded into its blocks, the modules' blocks among them.
 */
export function languagePrelude(
  written: Readonly<Record<string, unknown>>,
  location: Pick<LoadLocation, 'file' | 'inputs' | 'dir' | 'modules'>,
  diagnostics: Diagnostic[],
  languageProblems: TenantformError[],
) {
  languageProblems.push(...documentShapeProblems(written));
  const root = decodeDocument(written);
  const variables = inputVariables(root.variables, location.inputs, diagnostics);
  const contextOver = (locals: ReadonlyMap<string, unknown>, localConversions: ReadonlyMap<string, LocalConversion>) =>
    contextFor(
      { file: location.file, dir: location.dir, variables, locals, localConversions, objects: new Map(), blocks: new Map(), remoteStates: new Map() },
      new Map(),
    );
  // Module calls are expanded into the root's blocks (see modules.ts).
  const modules = expandModules(root, location.dir ?? dirname(location.file), location.modules, contextOver, languageProblems);
  const doc = modules.document;
  const names = declaredNames(doc);
  const locals = parseLocals(doc.locals, names, languageProblems);
  // count and for_each may use variables and locals: objects are not known when planning starts.
  const beforeObjects = contextOver(locals.ordered, modules.variables);
  return { doc, moduleVariables: modules.variables, names, variables, locals, beforeObjects };
}
