import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { configWith, infra, run, startWorld, type CliResult, type World } from '../cli/helpers';
import { startPostgres, type RunningPostgres } from '../helpers/postgres';
import { makeTestCa, type IssuedCertificate, type TestCa } from '../helpers/test-ca';
import { ensureBuilt, requireTerraform, run as runTool, terraformEnvironment } from '../provider/helpers';

jest.setTimeout(180_000);

/** The role the state belongs to: pg_hba.conf lets it in over TLS only, with a client certificate its CA signed. */
const OWNER = 'state_owner';
const OWNER_PASSWORD = 'owner-pw-7f3k9q';

/**
 * The CLI as a process against a real PostgreSQL with TLS on, its state reached with
 * Terraform's pg settings (sslmode, sslrootcert, sslcert, sslkey, or their PG* variables).
 */
describe('pg backend over TLS', () => {
  let world: World;
  let pg: RunningPostgres;
  let files: string;
  let ca: TestCa;
  let otherCa: TestCa;
  let client: IssuedCertificate;
  /** A HOME without ~/.postgresql, so that libpq's default client certificate is not found. */
  let home: string;

  beforeAll(async () => {
    files = mkdtempSync(join(tmpdir(), 'tenantform-tls-'));
    ca = makeTestCa(join(files, 'ca'));
    otherCa = makeTestCa(join(files, 'other'), 'other-ca');
    client = ca.client(OWNER);
    const server = ca.server('server', { dns: ['localhost'], ip: ['127.0.0.1'] });
    home = join(files, 'home');
    mkdirSync(home);
    [world, pg] = await Promise.all([
      startWorld(),
      startPostgres({
        tls: { cert: server.cert, key: server.key, ca: ca.cert },
        alsoListenOn: ['127.0.0.2'],
        hba: [
          'local all all scram-sha-256',
          `hostssl all ${OWNER} 127.0.0.0/8 scram-sha-256 clientcert=verify-full`,
          `host all ${OWNER} 127.0.0.0/8 reject`,
          'host all all 127.0.0.0/8 scram-sha-256',
        ],
      }),
    ]);
    await admin(`CREATE ROLE ${OWNER} LOGIN PASSWORD '${OWNER_PASSWORD}'`);
  });
  afterAll(async () => {
    await world?.close();
    await pg?.stop();
    rmSync(files, { recursive: true, force: true });
  });

  const admin = async (sql: string) => {
    const c = new Client({ connectionString: pg.connectionString() });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  const database = async (name: string) => {
    await admin(`CREATE DATABASE ${name} OWNER ${OWNER}`);
    return name;
  };
  const connStr = (db: string, settings: Record<string, string>, host = '127.0.0.1') =>
    `postgres://${OWNER}:${OWNER_PASSWORD}@${host}:${pg.port}/${db}?${new URLSearchParams(settings).toString()}`;
  const stack = (conn: Record<string, unknown>, file: string, resources: Record<string, Record<string, unknown>> = {}) =>
    writeConfig(file, { ...configWith(resources), terraform: { backend: { pg: conn } } });
  const writeConfig = (file: string, config: unknown) => {
    mkdirSync(join(world.dir, file, '..'), { recursive: true });
    writeFileSync(join(world.dir, file), JSON.stringify(config, null, 2));
    return file;
  };
  const tenantform = async (args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> => {
    const r = await run(world, args, { HOME: home, ...env });
    expect(r.stdout + r.stderr).not.toContain(OWNER_PASSWORD);
    return r;
  };
  const verifyFull = () => ({ sslmode: 'verify-full', sslrootcert: ca.cert, sslcert: client.cert, sslkey: client.key });

  it('plans, applies and lists with the CA and a client certificate, from conn_str or PG* variables; terraform plans the same state empty', async () => {
    requireTerraform();
    await ensureBuilt();
    const db = await database('tls_apply');
    const config = stack({ conn_str: connStr(db, verifyFull()) }, 'tf/main.tf.json', { tenantform_infra_component: { site: infra('TLS Site') } });

    expect((await tenantform(['plan', '--config', config, '--detailed-exitcode'])).code).toBe(2);
    const applied = await tenantform(['apply', '--config', config, '--auto-approve']);
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('1 added');
    const listed = await tenantform(['state', 'list', '--config', config]);
    expect(listed.stdout).toContain('tenantform_infra_component.site');

    const fromEnv = stack({}, 'env.tf.json');
    const env = { PG_CONN_STR: connStr(db, {}), PGSSLMODE: 'verify-full', PGSSLROOTCERT: ca.cert, PGSSLCERT: client.cert, PGSSLKEY: client.key };
    const listedFromEnv = await tenantform(['state', 'list', '--config', fromEnv], env);
    expect(listedFromEnv.code).toBe(0);
    expect(listedFromEnv.stdout).toBe(listed.stdout);

    // terraform, with tenantform's provider, on the same conn_str: the state it reads is the one applied.
    const tfEnv = await terraformEnvironment(world.dir, world.emulator, `pg-tls-${process.pid}`);
    writeConfig(config, {
      ...configWith({ tenantform_infra_component: { site: infra('TLS Site') } }),
      terraform: { required_providers: { tenantform: { source: 'tenantform/tenantform' } }, backend: { pg: { conn_str: connStr(db, verifyFull()) } } },
    });
    const terraform = (...args: string[]) => runTool('terraform', args, { cwd: join(world.dir, 'tf'), env: tfEnv });
    expect((await terraform('init', '-input=false', '-no-color')).output).toContain('Terraform has been successfully initialized');
    const tfPlan = await terraform('plan', '-detailed-exitcode', '-input=false', '-no-color');
    expect(tfPlan.output).toContain('No changes.');
    expect(tfPlan.code).toBe(0);
  });

  it('verify-full refuses a host name the certificate does not hold, naming it; verify-ca checks the CA alone', async () => {
    const db = await database('tls_names');
    const full = await tenantform(['plan', '--config', stack({ conn_str: connStr(db, verifyFull(), '127.0.0.2') }, 'full.tf.json')]);
    expect(full.code).toBe(1);
    expect(full.stderr).toContain('Cannot connect securely to the state backend');
    expect(full.stderr).toContain('TLS with 127.0.0.2');
    expect(full.stderr).toContain('sslmode=verify-ca');

    const caOnly = { ...verifyFull(), sslmode: 'verify-ca' };
    const accepted = await tenantform(['plan', '--config', stack({ conn_str: connStr(db, caOnly, '127.0.0.2') }, 'ca.tf.json')]);
    expect(accepted.stderr).toBe('');
    expect(accepted.code).toBe(0);
  });

  it("a CA that is missing, unreadable or not the server's stops the run naming sslrootcert", async () => {
    const db = await database('tls_ca');
    const before = world.requests.length;
    const { sslcert, sslkey } = verifyFull();

    const noCa = await tenantform(['plan', '--config', stack({ conn_str: connStr(db, { sslmode: 'verify-ca', sslcert, sslkey }) }, 'noca.tf.json')]);
    expect(noCa.code).toBe(1);
    expect(noCa.stderr).toContain('TLS with 127.0.0.1');
    expect(noCa.stderr).toContain('set sslrootcert in conn_str (or PGSSLROOTCERT)');

    const missing = join(files, 'nowhere', 'ca.crt');
    const absent = await tenantform(['plan', '--config', stack({ conn_str: connStr(db, { sslmode: 'verify-ca', sslrootcert: missing }) }, 'absent.tf.json')]);
    expect(absent.code).toBe(1);
    expect(absent.stderr).toContain(`sslrootcert: ${missing} cannot be read (no such file)`);
    const fromEnv = await tenantform(['plan', '--config', stack({ conn_str: connStr(db, { sslmode: 'verify-full' }) }, 'envca.tf.json')], {
      PGSSLROOTCERT: missing,
    });
    expect(fromEnv.stderr).toContain(`PGSSLROOTCERT: ${missing} cannot be read`);

    // libpq's require verifies the server against a CA file that exists.
    const wrong = await tenantform([
      'plan',
      '--config',
      stack({ conn_str: connStr(db, { sslmode: 'require', sslrootcert: otherCa.cert, sslcert, sslkey }) }, 'wrong.tf.json'),
    ]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain(`not signed by the CA in sslrootcert (${otherCa.cert})`);
    expect(world.requests.slice(before)).toEqual([]);
  });

  it("the server refuses a connection without the client certificate; libpq's ~/.postgresql one serves; a key others can read is refused", async () => {
    const db = await database('tls_client');
    const { sslrootcert, sslkey } = verifyFull();
    const noCert = await tenantform(['plan', '--config', stack({ conn_str: connStr(db, { sslmode: 'verify-full', sslrootcert }) }, 'nocert.tf.json')]);
    expect(noCert.code).toBe(1);
    expect(noCert.stderr).toContain('connection requires a valid client certificate');
    expect(noCert.stderr).toContain('set sslcert and sslkey in conn_str (or PGSSLCERT and PGSSLKEY)');

    const withHome = join(files, 'home-with-cert');
    mkdirSync(join(withHome, '.postgresql'), { recursive: true });
    copyFileSync(client.cert, join(withHome, '.postgresql', 'postgresql.crt'));
    copyFileSync(client.key, join(withHome, '.postgresql', 'postgresql.key'));
    const usual = await tenantform(['plan', '--config', 'nocert.tf.json'], { HOME: withHome });
    expect(usual.stderr).toBe('');
    expect(usual.code).toBe(0);

    const shared = join(files, 'shared.key');
    copyFileSync(sslkey, shared);
    chmodSync(shared, 0o644);
    const exposed = await tenantform(['plan', '--config', stack({ conn_str: connStr(db, { ...verifyFull(), sslkey: shared }) }, 'exposed.tf.json')]);
    expect(exposed.code).toBe(1);
    expect(exposed.stderr).toContain(`sslkey: ${shared} has mode 0644`);
    expect(exposed.stderr).toContain(`chmod 600 ${shared}`);
  });
});
