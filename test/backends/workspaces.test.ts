/**
 * `tenantform workspace list` and `show` on each backend, against the real `terraform workspace
 * list` on the same backend: the workspaces a stack's states are kept in, TF_WORKSPACE choosing
 * the current one, as in Terraform's automation.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { configWith, infra, run as tenantform } from '../cli/helpers';
import { BACKEND_BLOCKS, withEveryBackend } from '../helpers/every-backend';
import { run } from '../provider/helpers';

jest.setTimeout(300_000);

describe('workspaces', () => {
  const running = withEveryBackend('workspaces');

  it.each(BACKEND_BLOCKS)('on the %s backend, lists what terraform lists', async (type, backend) => {
    const { world, credentials, terraformEnv } = running();
    const dir = join(world.dir, `workspaces-${type}`);
    mkdirSync(dir, { recursive: true });
    const config = join(`workspaces-${type}`, 'main.tf.json');
    const block = await backend(running(), 'workspaces');
    writeFileSync(
      join(world.dir, config),
      JSON.stringify({
        ...configWith({ tenantform_infra_component: { site: infra(`Workspace ${type}`) } }),
        terraform: { required_providers: { tenantform: { source: 'tenantform/tenantform' } }, backend: block },
      }),
    );
    const terraform = (...args: string[]) => run('terraform', args, { cwd: dir, env: { ...terraformEnv, ...credentials } });
    const init = await terraform('init', '-input=false', '-no-color');
    expect(init.code === 0 ? '' : init.output).toBe('');
    const applyIn = (workspace: string) => tenantform(world, ['apply', '--config', config, '--auto-approve'], { ...credentials, TF_WORKSPACE: workspace });
    expect((await applyIn('default')).code).toBe(0);
    // The http backend keeps one state: terraform refuses other workspaces there, and so does the lock.
    if (type !== 'http') expect((await applyIn('staging')).code).toBe(0);

    const listed = await tenantform(world, ['workspace', 'list', '--config', config], credentials);
    const byTerraform = await terraform('workspace', 'list');
    const lines = (text: string) => text.split('\n').filter((l) => l.trim() !== '');
    if (type === 'http') {
      // One state, no workspaces: both refuse to list them.
      expect(byTerraform.code).toBe(1);
      expect(listed.code).toBe(1);
      expect(listed.stderr).toContain('The http backend keeps one state: it has no workspaces');
      return;
    }
    expect(listed.code).toBe(0);
    expect(lines(listed.stdout)).toEqual(lines(byTerraform.stdout));
    expect(lines(listed.stdout)).toEqual(['* default', '  staging']);

    const chosen = await tenantform(world, ['workspace', 'list', '--config', config], { ...credentials, TF_WORKSPACE: 'staging' });
    expect(lines(chosen.stdout)).toContain('* staging');
    expect((await tenantform(world, ['workspace', 'show'], { TF_WORKSPACE: 'staging' })).stdout).toBe('staging\n');
    const select = await tenantform(world, ['workspace', 'select', 'staging']);
    expect(select.code).toBe(1);
    expect(select.stderr).toContain('set TF_WORKSPACE=staging');
  });
});
