import { readInputFile } from '../input-file';
import { basename, resolve } from 'node:path';
import type { Diagnostic } from '../diagnostics';
import { type TenantformError } from '../errors';
import { configErrors } from './errors';
import { languageErrors } from './language-errors';
import { contextOf, evaluateTemplate, firstCall, fromPlain, isKnown, parseExpression, evaluate, SensitiveValue, unmarkDeep, type Value } from '../expressions';
import { isRecord, ownValue, parsePlainJson } from '../plain-json';
import { BLOCK_ARGUMENTS, boolArgument, extraneousArguments, notCarriedOut, stringArgument } from './block-arguments';
import { convertTo, parseTypeConstraint, takesRawText, type TypeConstraint } from './variable-types';
import type { NamedBlock } from './model';

/**
 * Input variables: the `variable` blocks of the configuration and the values given for them,
 * as Terraform takes them (lowest precedence first): the default, `TF_VAR_<name>`, a folder's
 * `terraform.tfvars`, `terraform.tfvars.json` and `*.auto.tfvars(.json)`, then `--var-file` files
 * and `--var name=value` flags in the order given.
 */

export interface VariableInputs {
  /** A folder's own variable files (`terraform.tfvars`, `*.auto.tfvars`), in the order terraform loads them: before the command line's. */
  readonly files?: readonly string[];
  /** `--var` and `--var-file` in the order given on the command line. */
  readonly given: ReadonlyArray<{ readonly kind: 'var' | 'file'; readonly text: string }>;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
}

export interface InputVariable {
  readonly name: string;
  /** The value, converted to the variable's type; never printed when sensitive. */
  readonly value: Value;
  readonly sensitive: boolean;
}

interface Declaration {
  readonly name: string;
  readonly type?: TypeConstraint;
  readonly default?: unknown;
  readonly sensitive: boolean;
  readonly nullable: boolean;
  readonly validations: ReadonlyArray<{ readonly condition: string; readonly message: string }>;
}

/** The value of every declared variable; problems (each naming `var.<name>`) go to `diagnostics`. */
export function inputVariables(blocks: readonly NamedBlock[], inputs: VariableInputs | undefined, diagnostics: Diagnostic[]): Map<string, InputVariable> {
  const report = (e: TenantformError) => diagnostics.push(e.toDiagnostic());
  const declarations = new Map<string, Declaration>();
  for (const [name, body] of blocks) {
    const d = declaration(name, body, report);
    if (d) declarations.set(name, d);
  }
  const given = new Map<string, { text?: string; value?: unknown }>();
  for (const [key, text] of Object.entries(inputs?.env ?? {})) {
    if (key.startsWith('TF_VAR_') && text !== undefined && declarations.has(key.slice(7))) given.set(key.slice(7), { text });
  }
  const automatic = (inputs?.files ?? []).map((file) => ({ kind: 'file' as const, text: file, label: basename(file) }));
  for (const g of [...automatic, ...(inputs?.given ?? []).map((g) => ({ ...g, label: `--var-file ${g.text}` }))]) {
    if (g.kind === 'var') {
      const eq = g.text.indexOf('=');
      const name = eq > 0 ? g.text.slice(0, eq).trim() : '';
      if (!name) report(languageErrors.invalidVariable(g.text, 'a --var is written name=value'));
      else if (!declarations.has(name)) report(languageErrors.undeclaredVariable(name, '--var'));
      else given.set(name, { text: g.text.slice(eq + 1) });
    } else {
      for (const [name, value] of varFile(resolve(inputs!.cwd, g.text), report)) {
        // As in Terraform, a file may carry values for other configurations too: a warning, not an error.
        if (!declarations.has(name)) diagnostics.push({ ...languageErrors.undeclaredVariable(name, g.label).toDiagnostic(), severity: 'warning' });
        else given.set(name, { value });
      }
    }
  }
  const out = new Map<string, InputVariable>();
  for (const d of declarations.values()) {
    const v = valueOf(d, given.get(d.name), report);
    if (v === undefined) continue;
    if (validates(d, v, report)) out.set(d.name, { name: d.name, value: v, sensitive: d.sensitive });
  }
  return out;
}

/** Names Terraform keeps for module blocks: no variable takes them. */
const RESERVED_VARIABLE_NAMES = new Set(['source', 'version', 'providers', 'count', 'for_each', 'lifecycle', 'depends_on', 'locals']);

function declaration(name: string, body: unknown, report: (e: TenantformError) => void): Declaration | undefined {
  if (!/^[A-Za-z_][A-Za-z0-9_-]*$/.test(name)) {
    report(
      languageErrors.invalidVariableName(name, 'A name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes.'),
    );
    return undefined;
  }
  if (RESERVED_VARIABLE_NAMES.has(name)) {
    report(languageErrors.invalidVariableName(name, `The variable name "${name}" is reserved due to its special meaning inside module blocks.`));
    return undefined;
  }
  const b = isRecord(body) ? body : {};
  const extraneous = extraneousArguments(b, 'variable');
  if (extraneous.length > 0) {
    for (const k of extraneous) report(languageErrors.unsupportedArgument(`var.${name}`, [k], `A variable block`, BLOCK_ARGUMENTS.variable));
    return undefined;
  }
  for (const k of notCarriedOut(b, 'variable')) report(configErrors.unsupportedMetaArgument(`var.${name}`, [k]));
  let type: TypeConstraint | undefined;
  if (typeof b.type === 'string') {
    const parsed = parseTypeConstraint(b.type);
    if ('problem' in parsed) {
      report(languageErrors.invalidVariable(name, parsed.problem, ['type']));
      return undefined;
    }
    type = parsed;
  }
  const rules = Array.isArray(b.validation) ? b.validation : b.validation === undefined ? [] : [b.validation];
  const validations = rules
    .filter(isRecord)
    .map((r) => ({ condition: String(r.condition ?? 'true'), message: String(r.error_message ?? 'The value is not valid.') }));
  const sensitive = boolArgument(b, 'sensitive', false);
  const nullable = boolArgument(b, 'nullable', true);
  const unsuitable = [
    ...(sensitive === undefined ? [['sensitive', 'true or false']] : []),
    ...(nullable === undefined ? [['nullable', 'true or false']] : []),
    ...(Object.hasOwn(b, 'description') && stringArgument(b, 'description') === undefined ? [['description', 'a string']] : []),
  ];
  for (const [argument, expected] of unsuitable) report(languageErrors.unsuitableArgument(`var.${name}`, [argument], expected));
  if (sensitive === undefined || nullable === undefined || unsuitable.length > 0) return undefined;
  return { name, type, default: ownValue(b, 'default'), sensitive, nullable, validations };
}

/** The value given (or the default), converted to the type; undefined after reporting why there is none. */
function valueOf(d: Declaration, given: { text?: string; value?: unknown } | undefined, report: (e: TenantformError) => void): Value | undefined {
  let raw: Value;
  if (given?.text !== undefined) {
    if (takesRawText(d.type)) raw = given.text;
    else {
      const parsed = parseExpression(given.text);
      const evaluated = 'problem' in parsed ? parsed : evaluate(parsed.expr, contextOf({}));
      if ('problem' in evaluated) {
        // Never quote what was given: it may be the secret.
        report(languageErrors.invalidVariable(d.name, `the value given is not an expression of its type (${evaluated.problem.message})`));
        return undefined;
      }
      raw = evaluated.value;
    }
  } else if (given) raw = fromPlain(given.value);
  else if (d.default !== undefined) raw = fromPlain(d.default);
  else {
    report(languageErrors.missingVariable(d.name));
    return undefined;
  }
  if (raw === null && !d.nullable) {
    report(languageErrors.invalidVariable(d.name, 'the variable is not nullable, but the value is null'));
    return undefined;
  }
  const converted = d.type ? convertTo(d.type, raw) : { value: raw };
  if ('problem' in converted) {
    report(languageErrors.invalidVariable(d.name, converted.problem));
    return undefined;
  }
  const value = converted.value as Value;
  return d.sensitive ? new SensitiveValue(unmarkDeep(value)) : value;
}

function validates(d: Declaration, value: Value, report: (e: TenantformError) => void): boolean {
  let ok = true;
  for (const rule of d.validations) {
    const context = contextOf({ var: { [d.name]: value } });
    const r = evaluateTemplate(rule.condition, context);
    if ('problem' in r) {
      report(languageErrors.expression(`var.${d.name}`, ['validation', 'condition'], r.problem));
      ok = false;
      continue;
    }
    const passed = unmarkDeep(r.value);
    if (!isKnown(passed) || typeof passed !== 'boolean') {
      report(languageErrors.invalidVariable(d.name, 'the validation condition must give true or false', ['validation', 'condition']));
      ok = false;
    } else if (!passed) {
      const message = evaluateTemplate(rule.message, context);
      const text = 'value' in message && typeof message.value === 'string' ? message.value : rule.message;
      report(languageErrors.variableValidation(d.name, text));
      ok = false;
    }
  }
  return ok;
}

/** A `.tfvars.json` file, or a `.tfvars` file of `name = value` lines (values in Terraform's syntax). */
function varFile(file: string, report: (e: TenantformError) => void): Array<[string, unknown]> {
  let text: string;
  try {
    text = readInputFile(file);
  } catch (err) {
    report(languageErrors.unreadableVarFile(file, (err as Error).message));
    return [];
  }
  if (file.endsWith('.json')) {
    try {
      const doc = parsePlainJson(text);
      if (!isRecord(doc)) throw new Error('the file does not hold a JSON object');
      return Object.entries(doc);
    } catch (err) {
      report(languageErrors.unreadableVarFile(file, (err as Error).message));
      return [];
    }
  }
  const out: Array<[string, unknown]> = [];
  for (const { name, source, line } of assignments(text)) {
    if (name === undefined) {
      report(
        languageErrors.unreadableVarFile(file, `line ${line}: expected an assignment (name = value), found ${JSON.stringify(source.trim().slice(0, 40))}`),
      );
      continue;
    }
    if (source.trim() === '') {
      report(languageErrors.unreadableVarFile(file, `line ${line}, ${name}: expected a value after "="`));
      continue;
    }
    const parsed = parseExpression(source);
    // A variable file holds constant values only, as Terraform reads it.
    const call = 'problem' in parsed ? undefined : firstCall(parsed.expr);
    if (call !== undefined) {
      report(languageErrors.callInVarFile(file, line, name, call));
      continue;
    }
    const evaluated = 'problem' in parsed ? parsed : evaluate(parsed.expr, contextOf({}));
    if ('problem' in evaluated) report(languageErrors.unreadableVarFile(file, `line ${line}, ${name}: ${evaluated.problem.message}`));
    else out.push([name, evaluated.value]);
  }
  return out;
}

/**
 * Splits `name = value` assignments; a value runs until the next assignment outside brackets and
 * strings. Text before the first assignment that is not a comment is an entry without a name.
 */
function assignments(text: string): Array<{ name: string | undefined; source: string; line: number }> {
  const out: Array<{ name: string | undefined; source: string; line: number }> = [];
  let depth = 0;
  let inComment = false;
  text.split('\n').forEach((lineText, i) => {
    const m = depth === 0 && !inComment ? /^\s*([A-Za-z_][A-Za-z0-9_-]*)\s*=(?!=)(.*)$/.exec(lineText) : null;
    if (m) out.push({ name: m[1], source: m[2], line: i + 1 });
    else if (out.length > 0) out[out.length - 1].source += `\n${lineText}`;
    else if (inComment || /^\s*\/\*/.test(lineText)) inComment = !/\*\/\s*$/.test(lineText);
    else if (!/^\s*(#.*|\/\/.*)?$/.test(lineText)) out.push({ name: undefined, source: lineText, line: i + 1 });
    depth += bracketBalance(m ? m[2] : lineText);
  });
  return out;
}

function bracketBalance(line: string): number {
  let balance = 0;
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '\\') i++;
      else if (c === '"') quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === '#' || (c === '/' && line[i + 1] === '/')) break;
    else if ('[{('.includes(c)) balance++;
    else if (']})'.includes(c)) balance--;
  }
  return balance;
}
