import type { Attribute, Attributes } from './attributes';
import type { AnyKind, ResourceKind } from './declaration';
import { IDENTITY_VERSION, identityAttributes } from './identity';
import { listAttributes } from './list';
import { camelCase, constructName } from './naming';
import { PROVIDER_ATTRIBUTES, PROVIDER_ENV } from './provider-config';
import { ALL_KINDS } from './registry.generated';
import { describe } from './terraform-schema';

/** Reference docs, generated from the declarations: `docs/resources/<type>.md` per kind. */
export function renderDocs(kinds: ReadonlyArray<AnyKind> = ALL_KINDS): Array<[string, string]> {
  const pages: Array<[string, string]> = kinds.map((k) => [
    `docs/resources/${k.kind === 'data' ? 'data_' : ''}${k.type.replace(/^tenantform_/, '')}.md`,
    renderKind(k),
  ]);
  pages.push(['docs/resources/provider.md', renderProvider()]);
  pages.push(['docs/resources/README.md', renderIndex(kinds)]);
  return pages;
}

function modeWords(a: Attribute): string {
  if (a.mode === 'required') return 'Required';
  if (a.mode === 'computed') return 'Computed';
  return 'Optional';
}

function rows(attributes: Attributes, prefix = ''): string[] {
  const out: string[] = [];
  for (const [name, a] of Object.entries(attributes)) {
    const full = `${prefix}${name}`;
    const type = a.type === 'list' ? 'list of string' : a.type === 'json' ? 'string (JSON)' : a.type === 'nested' ? `${a.nesting} of object` : a.type;
    const flags = [modeWords(a), a.sensitive ? 'sensitive' : '', a.forceNew ? 'forces replacement' : '', a.deprecated !== undefined ? 'deprecated' : '']
      .filter(Boolean)
      .join(', ');
    const expects = 'expects' in a && a.expects ? ` Expects ${a.expects}.` : '';
    out.push(`| \`${full}\` (\`${camelCase(name)}\`) | ${type} | ${flags} | ${describe(a, a.forceNew === true)}${expects} |`);
    if (a.type === 'object') out.push(...rows(a.attributes, `${full}.`));
    // Each object of a collection: `items[*].name`, `by_key["<key>"].name`.
    if (a.type === 'nested') out.push(...rows(a.attributes, a.nesting === 'map' ? `${full}["<key>"].` : `${full}[*].`));
  }
  return out;
}

export function table(attributes: Attributes): string {
  return ['| Attribute (cdktf prop) | Type | Use | Description |', '|---|---|---|---|', ...rows(attributes)].join('\n');
}

function configurable(attributes: Attributes): Attributes {
  return Object.fromEntries(Object.entries(attributes).filter(([, a]) => a.mode !== 'computed'));
}

function computedOnly(attributes: Attributes): Attributes {
  return Object.fromEntries(Object.entries(attributes).filter(([, a]) => a.mode === 'computed'));
}

function tsLiteral(value: unknown, indent: string): string {
  if (typeof value === 'string') {
    const ref = /^\$\{(data\.)?([a-z_]+)\.([a-z0-9_]+)\.([a-z_]+)\}$/.exec(value);
    if (ref) return `${camelCase(ref[3])}.${camelCase(ref[4])}`;
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) {
    if (!value.some((v) => v !== null && typeof v === 'object')) return `[${value.map((v) => tsLiteral(v, indent)).join(', ')}]`;
    return `[\n${value.map((v) => `${indent}  ${tsLiteral(v, `${indent}  `)},`).join('\n')}\n${indent}]`;
  }
  if (value && typeof value === 'object') {
    const inner = Object.entries(value)
      .map(([k, v]) => `${indent}  ${camelCase(k)}: ${tsLiteral(v, `${indent}  `)},`)
      .join('\n');
    return `{\n${inner}\n${indent}}`;
  }
  return JSON.stringify(value);
}

/** An HCL expression for an example value: a `${...}` reference as the bare reference. */
function hclLiteral(value: unknown, indent: string): string {
  if (typeof value === 'string') {
    const ref = /^\$\{([^${}]+)\}$/.exec(value);
    return ref ? ref[1] : JSON.stringify(value);
  }
  if (Array.isArray(value)) {
    if (!value.some((v) => v !== null && typeof v === 'object')) return `[${value.map((v) => hclLiteral(v, indent)).join(', ')}]`;
    return `[\n${value.map((v) => `${indent}  ${hclLiteral(v, `${indent}  `)},`).join('\n')}\n${indent}]`;
  }
  if (value && typeof value === 'object') return `{\n${hclMembers(value as Record<string, unknown>, `${indent}  `)}\n${indent}}`;
  return JSON.stringify(value);
}

/**
 * `name = value` lines aligned as `terraform fmt` aligns them: a run of one-line values shares
 * one width; a value over several lines is not padded and ends the run.
 */
export function hclMembers(members: Record<string, unknown>, indent: string): string {
  const lines = Object.entries(members).map(([name, v]) => ({ name, value: hclLiteral(v, indent) }));
  const out: string[] = [];
  for (let i = 0; i < lines.length;) {
    let end = i;
    while (end < lines.length && !lines[end].value.includes('\n')) end++;
    const width = Math.max(0, ...lines.slice(i, end).map((l) => l.name.length));
    for (const l of lines.slice(i, end)) out.push(`${indent}${l.name.padEnd(width)} = ${l.value}`);
    if (end < lines.length) out.push(`${indent}${lines[end].name} = ${lines[end].value}`);
    i = end + 1;
  }
  return out.join('\n');
}

function renderKind(kind: AnyKind): string {
  const title = kind.kind === 'data' ? `Data source \`${kind.type}\`` : `Resource \`${kind.type}\``;
  const lines = [
    '<!-- Generated by scripts/generate.ts from the declaration in src/resources/kinds/: do not edit. -->',
    `# ${title}`,
    '',
    kind.description,
    '',
    ...(kind.notes && kind.notes.length > 0 ? [...kind.notes.map((n) => `- ${n}`), ''] : []),
    '## Example (cdktf, TypeScript)',
    '',
    '```ts',
    `new ${constructName(kind.type, kind.kind)}(this, '${kind.example.name}', ${tsLiteral(kind.example.config, '')});`,
    '```',
    '',
    '## Example (HCL)',
    '',
    '```hcl',
    `${kind.kind === 'data' ? 'data' : 'resource'} "${kind.type}" "${kind.example.name}" {`,
    hclMembers(kind.example.config, '  '),
    '}',
    '```',
    '',
    '## Example (Terraform JSON, as `cdktf synth` writes it)',
    '',
    '```json',
    JSON.stringify({ [kind.kind === 'data' ? 'data' : 'resource']: { [kind.type]: { [kind.example.name]: kind.example.config } } }, null, 2),
    '```',
    '',
    '## Arguments',
    '',
    table(configurable(kind.attributes)),
    '',
    '## Attributes (computed)',
    '',
    table(computedOnly(kind.attributes)),
    '',
  ];
  if (kind.kind === 'resource') {
    const to = `${kind.type}.${kind.example.name}`;
    lines.push('## Import', '', `Import id: ${kind.importId.format}.`, '');
    lines.push('With an `import` block, planned and applied like any change (Terraform 1.5 or later, and `tenantform plan`):', '');
    lines.push('```hcl', 'import {', `  to = ${to}`, '  id = "<id>"', '}', '```', '');
    lines.push(
      `In a cdktf app: \`.importFrom("<id>")\` on the construct. \`terraform plan -generate-config-out=generated.tf\` writes the resource block of an import block without one.`,
      '',
    );
    lines.push('With the command, which records the object in the state at once:', '', '```sh');
    lines.push(`tenantform import ${to} <id>`);
    lines.push(`terraform import ${to} <id>`, '```', '');
    lines.push(...identitySection(kind, to));
    if (kind.discover) lines.push(...listSection(kind));
    if (kind.deleteOnlyForgets) lines.push('## Removal', '', kind.deleteOnlyForgets, '');
  }
  return lines.join('\n');
}

/** The identity Terraform 1.12 and later keep beside the object, and the import block that names it. */
function identitySection(kind: ResourceKind, to: string): string[] {
  const attributes = identityAttributes(kind);
  return [
    '## Identity (Terraform 1.12 and later)',
    '',
    `Version ${IDENTITY_VERSION}. Terraform records it beside the state; an \`import\` block may name the object by it instead of \`id\`.`,
    '',
    '| Identity attribute | Type | Read from | Description |',
    '|---|---|---|---|',
    ...attributes.map((a) => `| \`${a.name}\` | string | \`${a.from}\` | ${a.description} |`),
    '',
    '```hcl',
    'import {',
    `  to = ${to}`,
    '  identity = {',
    hclMembers(Object.fromEntries(attributes.map((a) => [a.name, `<${a.name}>`])), '    '),
    '  }',
    '}',
    '```',
    '',
  ];
}

/** The list resource of a kind (Terraform 1.14 and later, `terraform query`), with a `.tfquery.hcl` example. */
function listSection(kind: ResourceKind): string[] {
  const config = kind.discover?.byName ? { include_subtree: true, names: ['<name>'] } : { include_subtree: true };
  return [
    '## List resource (Terraform 1.14 and later)',
    '',
    `\`terraform query\` lists the live objects of a tenant (by default the API client's own) or of its subtree, each with its display name and identity; with \`include_resource = true\`, the object as an import records it (read eight at a time, sent in the listing's order). \`terraform query -generate-config-out=generated.tf\` writes a resource and an \`import\` block for each.`,
    '',
    table(listAttributes(kind)),
    '',
    'In a `.tfquery.hcl` file:',
    '',
    '```hcl',
    `list "${kind.type}" "all" {`,
    '  provider         = tenantform',
    '  include_resource = true',
    '  limit            = 50',
    '',
    '  config {',
    hclMembers(config, '    '),
    '  }',
    '}',
    '```',
    '',
  ];
}

function renderProvider(): string {
  return [
    '<!-- Generated by scripts/generate.ts: do not edit. -->',
    '# Provider `tenantform`',
    '',
    'Source `tenantform/tenantform`. Arguments left out are read from the environment:',
    '',
    ...Object.entries(PROVIDER_ENV).map(([k, v]) => `- \`${k}\`: \`${v}\``),
    '',
    table(PROVIDER_ATTRIBUTES),
    '',
    'A second provider block with `alias` addresses a second data center.',
    '',
  ].join('\n');
}

function renderIndex(kinds: ReadonlyArray<AnyKind>): string {
  return [
    '<!-- Generated by scripts/generate.ts: do not edit. -->',
    '# Reference',
    '',
    '- [Provider](provider.md)',
    ...kinds.map((k) => {
      const file = `${k.kind === 'data' ? 'data_' : ''}${k.type.replace(/^tenantform_/, '')}.md`;
      return `- ${k.kind === 'data' ? 'Data source' : 'Resource'} [\`${k.type}\`](${file})`;
    }),
    '',
  ].join('\n');
}
