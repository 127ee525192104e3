import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openBackend } from './index';

describe('a backend read through terraform', () => {
  const open = (backend: Record<string, unknown>, env: NodeJS.ProcessEnv = process.env) => {
    const dir = mkdtempSync(join(tmpdir(), 'tenantform-through-terraform-'));
    const configFile = join(dir, 'main.tf.json');
    writeFileSync(configFile, JSON.stringify({ terraform: { backend } }));
    return { dir, backend: openBackend({ configFile, defaultState: join(dir, 'unused.tfstate'), cwd: dir, env }) };
  };

  it('names where the state is, never a credential, and says that it reads without a lock', () => {
    const { dir, backend } = open({ s3: { bucket: 'states', key: 'prod/app.tfstate', region: 'eu-west-1', secret_key: 'never-shown-1234' } });
    expect(backend.location).toBe(`the s3 backend (bucket "states", key "prod/app.tfstate") of ${dir}`);
    expect(backend.readOnly?.notice).toContain('`terraform state pull`, which takes no lock');
    expect(`${backend.location} ${backend.readOnly?.notice}`).not.toContain('never-shown-1234');
    expect(open({ cloud: { organization: 'northwind', token: 'never-shown-5678' } }).backend.location).toContain('organization "northwind"');
  });

  it('refuses writes, locks and force-unlock, naming what does them', async () => {
    const { backend } = open({ gcs: { bucket: 'states' } });
    await expect(backend.write('{}')).rejects.toThrow(/does not change a stack on the "gcs" backend.*`cdktn deploy`.*`terraform apply`/s);
    await expect(backend.tryLock({ ID: 'x', Operation: 'OperationTypeApply', Info: '', Who: 'w', Version: 'v', Created: '', Path: '' })).rejects.toThrow(
      /does not lock a stack/,
    );
    await expect(backend.forceUnlock('x')).rejects.toThrow('`terraform force-unlock ID`');
    await expect(backend.currentLock()).resolves.toBeUndefined();
  });

  it("reports terraform's own message, naming the backend and the command that failed", async () => {
    const { backend } = open({ s3: { key: 'no-bucket.tfstate', region: 'eu-west-1' } }, { PATH: process.env.PATH, TF_CLI_CONFIG_FILE: '/dev/null' });
    await expect(backend.read()).rejects.toThrow(
      /terraform could not read the "s3" backend: `terraform init` failed while reading the s3 backend.*"bucket" is required/s,
    );
  });

  it('says when terraform cannot be started', async () => {
    const { backend } = open({ azurerm: { container_name: 'states', key: 'app.tfstate' } }, { PATH: '' });
    await expect(backend.read()).rejects.toThrow(/reads the state of a "azurerm" backend through terraform, which could not be started/);
  });
});
