/**
 * Renders an export as a complete cdktf app in TypeScript: constructs from `tenantform`,
 * camelCase props, tenants and applications as literal ids named by a comment.
 */
import type { Attribute, Attributes } from '../resources/attributes';
import type { State } from '../resources/declaration';
import { camelCase, constructName } from '../resources/naming';
import { parseJson } from '../resources/values';
import type { TenantExport } from './model';
import { slug } from './names';
import { cdktfTemplateLiteral } from './template-literal';

const INDENT = '  ';
/** Arrays of plain values up to this length stay on one line. */
const INLINE_WIDTH = 72;

/** The CDK library the app is written for: the project's own (CDK Terrain or cdktf). */
export type CdkLibrary = 'cdktn' | 'cdktf';

export function renderTypescript(exp: TenantExport, library: CdkLibrary = 'cdktf', options: { importBlocks?: boolean } = {}): string {
  const tenantKeys = identifiers(exp.tenants.map((t) => t.name));
  const tenantRef = new Map(exp.tenants.map((t, i) => [t.id, `tenants.${tenantKeys[i]}`]));
  const usedApps = new Set(exp.objects.flatMap((o) => idsUnder(o.config, 'application_id')));
  const apps = exp.applications.filter((a) => usedApps.has(a.id));
  const appKeys = identifiers(apps.map((a) => a.type));
  const appRef = new Map(apps.map((a, i) => [a.id, `applications.${appKeys[i]}`]));
  const usedTenants = new Set(exp.objects.flatMap((o) => idsUnder(o.config, 'tenant_id')));
  const refs: References = { tenant: tenantRef, application: appRef };

  const classes = [...new Set(exp.objects.map((o) => constructName(o.kind.type, 'resource')))];
  const imported = ['TenantformProvider', ...classes].sort();
  let stackClass = `${pascal(slug(exp.root.name))}Stack`;
  if (['App', 'TerraformStack', 'Construct', ...imported].includes(stackClass)) stackClass = `Exported${stackClass}`;

  const out: string[] = [
    '/**',
    ` * What tenant ${commentText(JSON.stringify(exp.root.name))} (${exp.root.id}) and the tenants below it have live,`,
    ' * exported by `tenantform export`.',
    ' *',
    ...(options.importBlocks
      ? [' * Each object is adopted by its import block (`importFrom`): the first plan imports them all, and', ' * applying it creates nothing.']
      : [
          ' * Adopt these objects before the first apply: run the import list written by `--imports`,',
          ` * or start from the state written by \`--state\`. Then \`npx ${library} synth && npx tenantform plan\``,
          ' * shows no changes.',
        ]),
    ' */',
    `import { App, TerraformStack } from '${library}';`,
    "import type { Construct } from 'constructs';",
    `import { ${imported.join(', ')} } from 'tenantform';`,
    '',
  ];
  const tenantLines = exp.tenants
    .map((t, i) => ({ t, key: tenantKeys[i] }))
    .filter(({ t }) => usedTenants.has(t.id))
    .map(({ t, key }) => `${INDENT}${key}: ${textLiteral(t.id)}, // ${commentText(t.name)} (${t.kind})`);
  if (tenantLines.length > 0) {
    out.push('/** Tenants by id: ids never become ambiguous; the comments name them. */', 'const tenants = {', ...tenantLines, '} as const;', '');
  }
  if (apps.length > 0) {
    out.push(
      '/** Applications by id. */',
      'const applications = {',
      ...apps.map((a, i) => `${INDENT}${appKeys[i]}: ${textLiteral(a.id)}, // ${commentText(a.name)}`),
      '} as const;',
      '',
    );
  }

  const body: string[] = [
    '// Credentials come from TENANTFORM_BASE_URL, TENANTFORM_CLIENT_ID and TENANTFORM_CLIENT_SECRET.',
    "new TenantformProvider(this, 'tenantform');",
  ];
  const dependedOn = new Set(exp.objects.flatMap((o) => o.dependsOn));
  const variables = new Map<string, string>();
  const variableNames = identifiers(
    exp.objects.filter((o) => dependedOn.has(o.address)).map((o) => o.name),
    RESERVED,
  );
  exp.objects.filter((o) => dependedOn.has(o.address)).forEach((o, i) => variables.set(o.address, variableNames[i]));
  let currentTenant: string | undefined;
  for (const o of exp.objects) {
    if (o.tenant.id !== currentTenant) {
      currentTenant = o.tenant.id;
      body.push('', `// ${commentText(o.tenant.name)}`);
    }
    const props = objectLiteral(
      o.kind.attributes,
      o.config,
      INDENT.repeat(2),
      refs,
      o.dependsOn.map((a) => variables.get(a) as string),
    );
    const variable = variables.get(o.address);
    const construct = `new ${constructName(o.kind.type, 'resource')}(this, ${tsString(o.name)}, ${props})`;
    const adopt = options.importBlocks ? `.importFrom(${textLiteral(o.importId)})` : '';
    if (variable) body.push(`const ${variable} = ${construct};`, ...(adopt ? [`${variable}${adopt};`] : []));
    else body.push(`${construct}${adopt};`);
  }

  out.push(
    `class ${stackClass} extends TerraformStack {`,
    `${INDENT}constructor(scope: Construct, id: string) {`,
    `${INDENT.repeat(2)}super(scope, id);`,
    ...body.map((line) => (line === '' ? '' : `${INDENT.repeat(2)}${line}`)),
    `${INDENT}}`,
    '}',
    '',
    'const app = new App();',
    `new ${stackClass}(app, ${tsString(exp.stack)});`,
    'app.synth();',
    '',
  );
  return out.join('\n');
}

interface References {
  readonly tenant: ReadonlyMap<string, string>;
  readonly application: ReadonlyMap<string, string>;
}

/** Props of a construct: camelCase keys, ids as references to the constants above. */
function objectLiteral(attributes: Attributes, config: State, indent: string, refs: References, dependsOn: readonly string[] = []): string {
  const members = Object.entries(config).map(([name, value]) => ({
    key: propertyKey(camelCase(name)),
    value: propValue(name, attributes[name], value, `${indent}${INDENT}`, refs),
  }));
  if (dependsOn.length > 0) members.push({ key: 'dependsOn', value: `[${dependsOn.join(', ')}]` });
  return block(members, indent);
}

/** `{ a: 1 }` on one line when short and flat, else one member per line. */
function block(members: ReadonlyArray<{ key: string; value: string }>, indent: string, inline = false): string {
  if (members.length === 0) return '{}';
  const oneLine = `{ ${members.map((m) => `${m.key}: ${m.value}`).join(', ')} }`;
  if (inline && !oneLine.includes('\n') && oneLine.length <= INLINE_WIDTH) return oneLine;
  return `{\n${members.map((m) => `${indent}${INDENT}${m.key}: ${m.value},`).join('\n')}\n${indent}}`;
}

function propValue(name: string, a: Attribute | undefined, value: unknown, indent: string, refs: References): string {
  if (typeof value === 'string') {
    const ref = refersTo(name, 'tenant_id') ? refs.tenant.get(value) : refersTo(name, 'application_id') ? refs.application.get(value) : undefined;
    if (ref) return ref;
    if (a?.type === 'json') {
      // JSON.stringify of the literal gives back the same text the platform's value has. Text
      // that needs escaping stays one string: the escapes are for the whole text, not its parts.
      const parsed = parseJson(value);
      if (parsed !== undefined && isLiteral(JSON.stringify(parsed))) return `JSON.stringify(${literal(parsed, indent, tsString)})`;
    }
  }
  if (a?.type === 'object' && value && typeof value === 'object') return objectProps(a.attributes, value as State, indent, refs);
  if (a?.type === 'nested' && value && typeof value === 'object') {
    const inner = `${indent}${INDENT}`;
    if (a.nesting === 'map') {
      // The map's keys are the user's: never camelCased.
      const members = Object.entries(value as Record<string, State>).map(([k, v]) => ({
        key: propertyKey(k, textLiteral),
        value: objectProps(a.attributes, v, inner, refs),
      }));
      return block(members, indent);
    }
    const items = (value as State[]).map((v) => objectProps(a.attributes, v, inner, refs));
    return items.length === 0 ? '[]' : `[\n${items.map((item) => `${inner}${item},`).join('\n')}\n${indent}]`;
  }
  return literal(value, indent, textLiteral);
}

/** A nested object as camelCase props, each member by its own attribute. */
function objectProps(attributes: Attributes, value: State, indent: string, refs: References): string {
  const members = Object.entries(value).map(([k, v]) => ({
    key: propertyKey(camelCase(k)),
    value: propValue(k, attributes[k], v, `${indent}${INDENT}`, refs),
  }));
  return block(members, indent, true);
}

/**
 * A TypeScript expression for a JSON value, formatted across lines as needed; `quote` writes
 * each string (and key) as a string literal.
 */
function literal(value: unknown, indent: string, quote: (text: string) => string): string {
  if (typeof value === 'string') return quote(value);
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const inline = `[${value.map((v) => literal(v, indent, quote)).join(', ')}]`;
    if (value.every((v) => v === null || typeof v !== 'object') && inline.length <= INLINE_WIDTH) return inline;
    return `[\n${value.map((v) => `${indent}${INDENT}${literal(v, indent + INDENT, quote)},`).join('\n')}\n${indent}]`;
  }
  return block(
    Object.entries(value).map(([k, v]) => ({ key: propertyKey(k, quote), value: literal(v, indent + INDENT, quote) })),
    indent,
    true,
  );
}

/** A member name: an identifier as it is, anything else as `quote` writes it. */
function propertyKey(key: string, quote: (text: string) => string = tsString): string {
  // A plain `__proto__` key would set the prototype instead of adding a member.
  if (key === '__proto__') return `[${quote(key)}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) && quote(key) === tsString(key) ? key : quote(key);
}

/** Platform text as a string literal whose synthesized value is the text itself, never a template or a cdktf token. */
function textLiteral(text: string): string {
  return tsString(cdktfTemplateLiteral(text));
}

/** Whether cdktf and Terraform read the text as it is. */
function isLiteral(text: string): boolean {
  return cdktfTemplateLiteral(text) === text;
}

/** A single-quoted string literal. */
export function tsString(s: string): string {
  const inner = JSON.stringify(s)
    .slice(1, -1)
    .replace(/\\(u[0-9a-fA-F]{4}|.)|'/g, (m: string, escaped: string | undefined) => (escaped === '"' ? '"' : m === "'" ? "\\'" : m));
  return `'${inner}'`;
}

/** Text safe inside a comment: one line, never closing a block comment. */
function commentText(s: string): string {
  return s.replace(/[\r\n\u2028\u2029]+/g, ' ').replace(/\*\//g, '* /');
}

/** Names the generated code declares itself, and words a variable cannot be named. */
const RESERVED = [
  ...['app', 'id', 'scope', 'tenants', 'applications'],
  ...'await break case catch class const continue debugger default delete do else enum export extends false finally for function if implements import in instanceof interface let new null package private protected public return static super switch this throw true try typeof var void while with yield'.split(
    ' ',
  ),
];

/** camelCase identifiers from names, unique among themselves and apart from `reserved`. */
function identifiers(names: readonly string[], reserved: readonly string[] = []): string[] {
  const taken = new Set(reserved);
  return names.map((n) => {
    const base = camelCase(slug(n));
    let candidate = base;
    for (let i = 2; taken.has(candidate); i++) candidate = `${base}${i}`;
    taken.add(candidate);
    return candidate;
  });
}

function pascal(snake: string): string {
  const c = camelCase(snake);
  return c.charAt(0).toUpperCase() + c.slice(1);
}

/** Values of attributes named `<name>` (or ending in `_<name>`) anywhere in a configuration. */
function idsUnder(config: State, name: string): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(config)) {
    if (refersTo(k, name) && typeof v === 'string') out.push(v);
    else if (v && typeof v === 'object' && !Array.isArray(v)) out.push(...idsUnder(v as State, name));
  }
  return out;
}

/** `tenant_id` and `owner_tenant_id` both refer to a tenant. */
function refersTo(key: string, name: string): boolean {
  return key === name || key.endsWith(`_${name}`);
}
