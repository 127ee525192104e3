import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { configWith, infra, run, startWorld, writeConfig, type World } from '../cli/helpers';

/** Configuration problems reach the user as errors naming the address and path, before any change is sent. */
describe('configuration hardening (CLI)', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld();
  });
  afterAll(() => world.close());

  const changesSent = () => world.requests.filter((r) => /^(POST|PUT|PATCH|DELETE) /.test(r) && !r.includes('/idp/token'));

  it('refuses at plan a value that is wrong only once its reference is resolved', async () => {
    const file = writeConfig(
      world,
      configWith({ tenantform_infra_component: { c: infra('Storage', { owner_tenant_id: 'x-${data.tenantform_tenant.northwind.id}' }) } }),
    );
    world.requests.length = 0;
    const plan = await run(world, ['plan', '--config', file]);
    expect(plan.code).toBe(1);
    expect(plan.stdout).toContain('tenantform_infra_component.c');
    expect(plan.stdout).toContain('owner_tenant_id');
    const apply = await run(world, ['apply', '--config', file, '--auto-approve']);
    expect(apply.code).toBe(1);
    expect(apply.stdout + apply.stderr).toContain('owner_tenant_id');
    expect(changesSent()).toEqual([]);
  });

  it('a local whose evaluation fails is an error naming it, never "known after apply", and the plan offers nothing to apply', async () => {
    const doc = {
      ...configWith({ tenantform_infra_component: { c: infra('Storage', { name: '${local.name}' }) } }),
      locals: { name: '${jsondecode("{")}' },
      output: { o: { value: '${local.name}' } },
    };
    const file = writeConfig(world, doc, 'failing-local.tf.json');
    world.requests.length = 0;
    const plan = await run(world, ['plan', '--config', file, '--detailed-exitcode']);
    expect(plan.code).toBe(1);
    expect(plan.stdout).toContain('local.name');
    expect(plan.stdout).toContain('jsondecode');
    expect(plan.stdout).toContain('The plan failed: nothing can be applied until the errors above are fixed.');
    expect(plan.stdout).not.toContain('You can apply this plan');
    expect(plan.stdout).not.toMatch(/^Plan: /m);
    expect(changesSent()).toEqual([]);
  });

  it('refuses, as Terraform does, arguments a block does not take, what tenantform does not carry out, and steps into a string', async () => {
    // Written as text: JSON.stringify would drop the __proto__ keys a hand-written file can hold.
    const base = JSON.stringify(configWith({ tenantform_infra_component: { c: infra('Storage') } }));
    const text = base
      .replace('"name":"Storage"', '"name":"Storage","lifecycle":{"__proto__":{"prevent_destroy":true},"frobnicate":true,"create_before_destroy":true}')
      .replace(
        /}$/,
        ',"variable":{"v":{"default":1,"__proto__":{"x":1}}},"output":{"o":{"value":"${tenantform_infra_component.c.id.x}"},"p":{"value":1,"sensitve":true}}}',
      );
    writeFileSync(join(world.dir, 'extraneous.tf.json'), text);
    world.requests.length = 0;
    const r = await run(world, ['plan', '--config', 'extraneous.tf.json']);
    expect(r.code).toBe(1);
    const errors = r.stdout + r.stderr;
    for (const expected of [
      'tenantform_infra_component.c: lifecycle.__proto__: Unsupported argument',
      'tenantform_infra_component.c: lifecycle.frobnicate: Unsupported argument',
      'tenantform_infra_component.c: lifecycle.create_before_destroy: "lifecycle.create_before_destroy" is not supported',
      'var.v: __proto__: Unsupported argument',
      'output.o: value: Unsupported attribute',
      'tenantform_infra_component.c.id is a string: it has no attribute "x"',
      'output.p: sensitve: Unsupported argument',
    ])
      expect(errors).toContain(expected);
    expect(changesSent()).toEqual([]);
    // A lifecycle block in Terraform JSON's block form (a list holding one) is read as one.
    const listed = writeConfig(
      world,
      JSON.parse(base.replace('"name":"Storage"', '"name":"Storage","lifecycle":[{"prevent_destroy":true}]')),
      'listed.tf.json',
    );
    expect((await run(world, ['apply', '--config', listed, '--auto-approve'])).code).toBe(0);
    const destroy = await run(world, ['destroy', '--config', listed, '--auto-approve']);
    expect(destroy.code).toBe(1);
    expect(destroy.stdout + destroy.stderr).toContain('prevent_destroy');
  });

  it('never quotes a client secret from the provider block', async () => {
    const secret = 'S3cr3t-${not-an-expression';
    const file = writeConfig(world, { ...configWith({}), provider: { tenantform: [{ client_secret: secret }] } });
    const plan = await run(world, ['plan', '--config', file]);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain('provider.tenantform');
    expect(plan.stderr).toContain('client_secret');
    expect(plan.stdout + plan.stderr).not.toContain('S3cr3t');
    expect(plan.stdout + plan.stderr).not.toContain('not-an-expression');
  });

  it('refuses inherited names and __proto__, and deep nesting, with address and path', async () => {
    const text = JSON.stringify(
      configWith({ tenantform_infra_component: { c: infra('Storage', { name: '${data.tenantform_tenant.northwind.toString}' }) } }),
    ).replace('"tenantform":[{}]', '"tenantform":[{"__proto__":{"base_url":"http://127.0.0.1:1"}}]');
    writeFileSync(join(world.dir, 'proto.tf.json'), text);
    const r = await run(world, ['plan', '--config', 'proto.tf.json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/tenantform_infra_component\.c[^\n]*\n?[^\n]*name|name[^\n]*tenantform_infra_component\.c/);
    expect(r.stderr).toContain('toString');
    expect(r.stderr).toContain('__proto__');

    const deep = JSON.stringify(configWith({ tenantform_infra_component: { c: infra('Storage') } })).replace(
      '"capabilities":["backup"]',
      `"capabilities":${'['.repeat(10_000)}${']'.repeat(10_000)}`,
    );
    writeFileSync(join(world.dir, 'deep.tf.json'), deep);
    const d = await run(world, ['plan', '--config', 'deep.tf.json']);
    expect(d.code).toBe(1);
    expect(d.stderr).toContain('tenantform_infra_component.c');
    expect(d.stderr).toContain('capabilities[0][0]');
    expect(d.stderr).not.toContain('Maximum call stack');
  });
});
