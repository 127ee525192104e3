/**
 * Problems and diagnostics are data, never bare strings: callers render them as text,
 * markdown, JSON or Terraform diagnostics.
 */

/** A path into a resource's attributes, e.g. ["maintenance_window", "days_of_week", 2]. */
export type AttributePath = ReadonlyArray<string | number>;

export type Severity = 'error' | 'warning';

export interface Diagnostic {
  readonly severity: Severity;
  /** Short, one line. */
  readonly summary: string;
  /** What happened and what to do next. */
  readonly detail: string;
  /** The resource address, e.g. `tenantform_infra_component.primary`. */
  readonly address?: string;
  /** The file that declares it, in a folder of Terraform files (`main.tf`). */
  readonly file?: string;
  /** The line of `file` it is on (1-based), where the file's text tells it. */
  readonly line?: number;
  readonly path?: AttributePath;
  /** A stable code a program can branch on (e.g. `invalid_value`, `version_conflict`). */
  readonly code?: string;
  /** Whether running the same thing again may succeed without any change. */
  readonly retryable?: boolean;
  /** For a broken rule: what the rule wants (also said in `detail`). */
  readonly expected?: string;
  /** For a broken rule: what it met, never a sensitive value (also said in `detail`). */
  readonly found?: string;
}

/**
 * A rule a value breaks, in words: what the rule wants and what it met. The two constructors
 * below make it a diagnostic without an address; the layer that knows the address fills it in.
 */
export interface BrokenRule {
  readonly code: string;
  readonly path: AttributePath;
  /** One sentence about the rule. */
  readonly message: string;
  readonly expected: string;
  readonly found: string;
}

/** A configured value the declaration refuses, found before any request is sent. */
export function invalidValue(r: BrokenRule): Diagnostic {
  return {
    severity: 'error',
    summary: `Invalid value for ${formatPath(r.path) || 'the resource'}`,
    detail: `${r.message} Expected ${r.expected}; found ${r.found}.`,
    path: r.path,
    code: r.code,
    retryable: false,
    expected: r.expected,
    found: r.found,
  };
}

/** A change the platform would refuse, found by the plan so that no request is sent. */
export function refusedChange(r: BrokenRule): Diagnostic {
  return {
    severity: 'error',
    summary: r.message,
    detail: `Expected ${r.expected}; found ${r.found}.`,
    path: r.path,
    code: r.code,
    retryable: false,
    expected: r.expected,
    found: r.found,
  };
}

/** The diagnostics with `address` where they have none. */
export function at(address: string, diags: readonly Diagnostic[]): Diagnostic[] {
  return diags.map((d) => (d.address ? d : { ...d, address }));
}

export function formatPath(path: AttributePath | undefined): string {
  if (!path || path.length === 0) return '';
  return path.map((step, i) => (typeof step === 'number' ? `[${step}]` : i === 0 ? step : `.${step}`)).join('');
}

export function hasErrors(diags: ReadonlyArray<Diagnostic>): boolean {
  return diags.some((d) => d.severity === 'error');
}

/** A diagnostic as text: `Error: <address>: <path>: <summary>`, then where it is written and `<detail>`. */
export function renderDiagnostic(d: Diagnostic): string {
  const where = [d.address, formatPath(d.path)].filter(Boolean).join(': ');
  const head = d.severity === 'error' ? 'Error' : 'Warning';
  const source = d.file === undefined ? '' : `  on ${d.file}${d.line === undefined ? '' : ` line ${d.line}`}\n`;
  return `${head}: ${where ? `${where}: ` : ''}${d.summary}\n${source}  ${d.detail.replace(/\n/g, '\n  ')}`;
}

/** Where a block, or one of its arguments, is written in a folder of Terraform files. */
export interface SourcePosition {
  readonly file: string;
  readonly line?: number;
}

/** The diagnostic with the file (and line) that declares its address, where one does. */
export function withFile(d: Diagnostic, positionOf: (address: string, path?: AttributePath) => SourcePosition | undefined): Diagnostic {
  const position = d.address === undefined || d.file !== undefined ? undefined : positionOf(d.address, d.path);
  return position === undefined ? d : { ...d, ...position };
}
