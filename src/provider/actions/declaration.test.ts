import { Unknown } from '../../resources/values';
import { renderActionDocs } from './docs';
import { ACTIONS } from './index';
import { validateAction } from './service';

/** The example as Terraform validates it: a reference is a value not known yet. */
function unknownReferences(v: unknown): unknown {
  if (typeof v === 'string' && v.startsWith('${')) return Unknown;
  return Array.isArray(v) ? v.map(unknownReferences) : v;
}

describe('the action declarations', () => {
  it.each(ACTIONS.map((a) => [a.type, a] as const))('%s: its example passes its own validation (references stand for unknown values)', (_type, action) => {
    const config = Object.fromEntries(Object.entries(action.example.config).map(([name, v]) => [name, unknownReferences(v)]));
    expect(validateAction(action, config)).toEqual([]);
  });

  it.each(ACTIONS.map((a) => [a.type, a] as const))('%s: a missing argument is named by its path', (_type, action) => {
    const required = Object.keys(action.attributes).filter((name) => action.attributes[name].mode === 'required');
    const problems = validateAction(action, {});
    expect(problems.map((p) => p.path)).toEqual(required.map((name) => [name]));
    expect(problems.every((p) => p.address === `action.${action.type}`)).toBe(true);
  });

  it('names are unique and of the provider', () => {
    const types = ACTIONS.map((a) => a.type);
    expect(new Set(types).size).toBe(types.length);
    expect(types.every((t) => /^tenantform_[a-z_]+$/.test(t))).toBe(true);
  });

  it('a list argument refuses a value twice, by its element', () => {
    const emails = ACTIONS.find((a) => a.type === 'tenantform_send_activation_email');
    const id = '3f0c2a6e-8c1d-4c55-9b0e-2d7f1b9a4e10';
    const problems = emails ? validateAction(emails, { user_ids: [id, id] }) : [];
    expect(problems.map((p) => p.path)).toEqual([['user_ids', 1]]);
  });
});

describe('docs/actions.md', () => {
  const [[path, page]] = renderActionDocs();

  it('lists every action with an action block and the command that invokes it', () => {
    expect(path).toBe('docs/actions.md');
    for (const action of ACTIONS) {
      expect(page).toContain(`## ${action.type}`);
      expect(page).toContain(`action "${action.type}" "${action.example.name}" {`);
    }
    expect(page).toContain(`terraform apply -invoke=action.${ACTIONS[0].type}.${ACTIONS[0].example.name}`);
  });

  it('writes references bare, as HCL does', () => {
    expect(page).toContain('    tenant_id      = tenantform_tenant.acme.id');
    expect(page).not.toContain('"${');
  });
});
