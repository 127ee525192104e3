import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openBackend } from './index';
import { parseDuration } from './acquire';
import { pgSettings } from './pg';
import { httpSettings } from './http';
import { BackendSettings } from './settings';

describe('openBackend', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tenantform-backend-'));
  const stack = (backend?: Record<string, unknown>) => {
    const file = join(dir, `stack-${Math.random().toString(36).slice(2)}.tf.json`);
    writeFileSync(file, JSON.stringify(backend ? { terraform: { backend } } : {}));
    return file;
  };
  const open = (configFile: string, extra: { state?: string; env?: NodeJS.ProcessEnv } = {}) =>
    openBackend({ configFile, defaultState: join(dir, 'default.tfstate'), stateOverride: extra.state, cwd: dir, env: extra.env ?? {} });

  it('reads the local path relative to the stack, the default without a block, --state, and TF_WORKSPACE', () => {
    expect(open(stack({ local: { path: 'x.tfstate' } })).location).toBe(join(dir, 'x.tfstate'));
    expect(open(stack()).location).toBe(join(dir, 'default.tfstate'));
    expect(open(stack({ local: {} })).location).toBe(join(dir, 'terraform.tfstate'));
    expect(open(stack({ local: {} }), { state: 'other.tfstate' }).location).toBe(join(dir, 'other.tfstate'));
    expect(open(stack({ local: {} }), { env: { TF_WORKSPACE: 'staging' } }).location).toBe(join(dir, 'terraform.tfstate.d', 'staging', 'terraform.tfstate'));
  });

  it('reads a backend it does not speak through terraform; refuses --state with a remote backend, and two backends', () => {
    expect(open(stack({ gcs: { bucket: 'b' } }))).toMatchObject({ type: 'gcs', readOnly: { notice: expect.stringContaining('terraform state pull') } });
    expect(() => open(stack({ pg: { conn_str: 'postgres://h/db' } }), { state: 'x.tfstate' })).toThrow('--state: applies to the local backend only');
    expect(() => open(stack({ local: {}, pg: {} }))).toThrow('declares 2 backends');
  });

  it('names pg and http locations without their passwords', () => {
    expect(open(stack({ pg: { conn_str: 'postgres://u:s3cret@db.example:5433/states?sslmode=disable' } })).location).toBe(
      'pg db.example:5433/states (schema terraform_remote_state, workspace default)',
    );
    expect(open(stack({ http: { address: 'https://u:s3cret@git.example/api/state?x=1' } })).location).toBe('http https://git.example/api/state');
  });
});

describe('backend settings', () => {
  it('pg: the block before the environment; key=value connection strings; TLS required unless sslmode says otherwise', () => {
    const s = pgSettings(
      new BackendSettings('pg', { schema_name: 'from_block' }, { PG_CONN_STR: "host=db user=tf password='a b' dbname=st", PG_SCHEMA_NAME: 'from_env' }),
      'default',
    );
    expect(s.schema).toBe('from_block');
    expect(s.connection).toMatchObject({ host: 'db', user: 'tf', password: 'a b', database: 'st', ssl: { rejectUnauthorized: false } });
    expect(pgSettings(new BackendSettings('pg', { conn_str: 'postgres://h/d?sslmode=disable' }, {}), 'default').connection.ssl).toBe(false);
  });

  it('http: Terraform defaults and TF_HTTP_* variables', () => {
    const s = httpSettings(new BackendSettings('http', {}, { TF_HTTP_ADDRESS: 'http://s/state', TF_HTTP_LOCK_METHOD: 'POST', TF_HTTP_RETRY_MAX: '0' }));
    expect(s).toMatchObject({ address: 'http://s/state', updateMethod: 'POST', lockMethod: 'POST', unlockMethod: 'UNLOCK', retryMax: 0 });
    expect(() => httpSettings(new BackendSettings('http', {}, {}))).toThrow('address: is required');
  });

  it("parses Terraform's durations for --lock-timeout", () => {
    expect(parseDuration('0s')).toBe(0);
    expect(parseDuration('1m30s')).toBe(90_000);
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration('0')).toBe(0);
    // Terraform: "missing unit in duration".
    expect(parseDuration('10')).toBeUndefined();
    expect(parseDuration('soon')).toBeUndefined();
  });
});
