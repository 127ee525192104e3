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
  readonly path?: AttributePath;
  /** A stable code a program can branch on (e.g. `invalid_value`, `version_conflict`). */
  readonly code?: string;
  /** Whether running the same thing again may succeed without any change. */
  readonly retryable?: boolean;
}

/** A configuration problem found before any request is sent. */
export interface Problem {
  readonly code: string;
  readonly address: string;
  readonly path: AttributePath;
  readonly expected: string;
  readonly found: string;
  readonly message: string;
}

export function formatPath(path: AttributePath | undefined): string {
  if (!path || path.length === 0) return '';
  return path
    .map((step, i) => (typeof step === 'number' ? `[${step}]` : i === 0 ? step : `.${step}`))
    .join('');
}

export function problemToDiagnostic(p: Problem): Diagnostic {
  return {
    severity: 'error',
    summary: `Invalid value for ${formatPath(p.path) || 'the resource'}`,
    detail: `${p.message} Expected ${p.expected}; found ${p.found}.`,
    address: p.address,
    path: p.path,
    code: p.code,
    retryable: false,
  };
}

export function hasErrors(diags: ReadonlyArray<Diagnostic>): boolean {
  return diags.some((d) => d.severity === 'error');
}

/** One line per diagnostic: `Error: <address>.<path>: <summary>: <detail>`. */
export function renderDiagnostic(d: Diagnostic): string {
  const where = [d.address, formatPath(d.path)].filter(Boolean).join(': ');
  const head = d.severity === 'error' ? 'Error' : 'Warning';
  return `${head}: ${where ? `${where}: ` : ''}${d.summary}\n  ${d.detail.replace(/\n/g, '\n  ')}`;
}
