import { PROVIDER_SOURCE, PROVIDER_TYPE } from '../resources/provider-config';
import type { TenantExport } from './model';
import { UNSAFE_CHARACTERS, unicodeEscape } from '../api/display-text';
import { templateLiteral } from './template-literal';
import { namedInConfiguration } from './terraform-json';

/**
 * Renders an export as a Terraform file in HCL, laid out as `terraform fmt` lays it out, so that a
 * team that writes Terraform gets its own language: `tenantform plan --config <folder>` and
 * `terraform` read it. Tenant and application names go into comments.
 */
export function renderHcl(exp: TenantExport, options: { importBlocks?: boolean } = {}): string {
  const named = namedInConfiguration(exp);
  const listed = (list: ReadonlyArray<{ id: string; name: string }>) => list.map((t) => `#   ${t.id}: ${JSON.stringify(t.name)}`);
  const tenants = listed(named.tenants);
  const applications = listed(named.applications);
  const header = [
    `# Exported by \`tenantform export --tenant ${exp.root.id}\` (stack ${JSON.stringify(exp.stack)}).`,
    ...(tenants.length > 0 ? ['# Tenants:', ...tenants] : []),
    ...(applications.length > 0 ? ['# Applications:', ...applications] : []),
  ].join('\n');
  const blocks = [
    header,
    block('terraform', [], [`required_providers {`, ...indented(attributes({ [PROVIDER_TYPE]: { source: PROVIDER_SOURCE } })), '}']),
    // Credentials come from the environment, so the file holds no secret.
    block(`provider "${PROVIDER_TYPE}"`, [], []),
    ...exp.objects.map((o) =>
      block(
        `resource "${o.kind.type}" "${o.name}"`,
        assignments([...members(o.config), ...(o.dependsOn.length > 0 ? [{ key: 'depends_on', value: `[${o.dependsOn.join(', ')}]` }] : [])]),
      ),
    ),
    // Import blocks adopt every object in the first plan.
    ...(options.importBlocks ? exp.objects.map((o) => block('import', aligned([`to = ${o.address}`, `id = ${literal(o.importId)}`]))) : []),
  ];
  return `${blocks.join('\n\n')}\n`;
}

const INDENT = '  ';

function block(head: string, lines: readonly string[], more: readonly string[] = []): string {
  const body = [...lines, ...more];
  return body.length === 0 ? `${head} {}` : `${head} {\n${indented(body).join('\n')}\n}`;
}

/** The lines (each may hold several) one level deeper. */
function indented(lines: readonly string[]): string[] {
  return lines.flatMap((l) => l.split('\n')).map((l) => (l === '' ? l : `${INDENT}${l}`));
}

function attributes(values: Readonly<Record<string, unknown>>): string[] {
  return assignments(members(values));
}

function members(values: Readonly<Record<string, unknown>>): Array<{ key: string; value: string }> {
  return Object.entries(values).map(([key, value]) => ({ key: objectKey(key), value: literal(value) }));
}

/** `name = value` lines; runs of one-line members aligned on `=`, as `terraform fmt` aligns them. */
function assignments(members: ReadonlyArray<{ key: string; value: string }>): string[] {
  const out: string[] = [];
  let run: string[] = [];
  const flush = () => {
    out.push(...aligned(run));
    run = [];
  };
  for (const { key, value } of members) {
    if (value.includes('\n')) {
      flush();
      out.push(`${key} = ${value}`);
    } else run.push(`${key} = ${value}`);
  }
  flush();
  return out;
}

/** One-line `key = value` lines with their `=` in one column. */
function aligned(lines: readonly string[]): string[] {
  const width = Math.max(0, ...lines.map((l) => l.indexOf(' = ')));
  return lines.map((l) => {
    const at = l.indexOf(' = ');
    return `${l.slice(0, at).padEnd(width)}${l.slice(at)}`;
  });
}

/** A value as an HCL literal: lists of scalars on one line, objects one member per line. */
function literal(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return quoted(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const items = value.map(literal);
    if (!items.some((i) => i.includes('\n')) && !value.some((v) => typeof v === 'object' && v !== null)) return `[${items.join(', ')}]`;
    return `[\n${indented(items.map((i) => `${i},`)).join('\n')}\n]`;
  }
  const lines = attributes(value as Record<string, unknown>);
  return lines.length === 0 ? '{}' : `{\n${indented(lines).join('\n')}\n}`;
}

const ESCAPES: Readonly<Record<string, string>> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * A quoted HCL string whose value is the text itself: HCL's escapes, no template in it, and the
 * controls and bidirectional marks as `\uNNNN`, so that what a reviewer reads is what it says.
 */
function quoted(text: string): string {
  const escaped = templateLiteral(text)
    .replace(/["\\]/g, (c) => ESCAPES[c])
    .replace(UNSAFE_CHARACTERS, (c) => ESCAPES[c] ?? unicodeEscape(c));
  return `"${escaped}"`;
}

function objectKey(key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_-]*$/.test(key) ? key : quoted(key);
}
