import type { ClientConfig } from 'pg';
import { backendErrors } from './errors';
import { whoAmI } from './lock-info';
import { pgTls, type PgTls } from './pg-tls';

/** The fields of a libpq connection string, URL (`postgres://...`) or `key=value` form. */
function connectionFields(connStr: string | undefined): Record<string, string> {
  const fields: Record<string, string> = {};
  if (connStr && /^postgres(ql)?:\/\//.test(connStr)) {
    let url: URL;
    try {
      url = new URL(connStr);
    } catch {
      throw backendErrors.invalidSetting('pg', 'conn_str', 'is not a valid PostgreSQL URL');
    }
    // A part with a broken escape (`%zz`) is named, never its value: the password is one of them.
    const decoded = (part: string, text: string): string => {
      try {
        return decodeURIComponent(text);
      } catch {
        throw backendErrors.invalidSetting('pg', 'conn_str', `its ${part} holds a % that starts no escape (write a literal % as %25)`);
      }
    };
    if (url.hostname) fields.host = decoded('host', url.hostname);
    if (url.port) fields.port = url.port;
    if (url.username) fields.user = decoded('user name', url.username);
    if (url.password) fields.password = decoded('password', url.password);
    if (url.pathname.length > 1) fields.dbname = decoded('database name', url.pathname.slice(1));
    for (const [k, v] of url.searchParams) fields[k] = v;
  } else if (connStr) {
    for (const m of connStr.matchAll(/(\w+)\s*=\s*(?:'((?:[^'\\]|\\.)*)'|(\S+))/g)) fields[m[1]] = m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : m[3];
  }
  return fields;
}

/**
 * A connection string as the client's settings, its TLS ones (sslmode, sslrootcert, sslcert,
 * sslkey, else PGSSLMODE, PGSSLROOTCERT, PGSSLCERT, PGSSLKEY) as Terraform's driver takes them.
 */
export function connectionConfig(connStr: string | undefined, env: NodeJS.ProcessEnv, baseDir: string): { connection: ClientConfig; tls: PgTls } {
  const fields = connectionFields(connStr);
  // node-postgres connects to PGHOST, else localhost, when the string names no host.
  const host = fields.host ?? env.PGHOST ?? 'localhost';
  const tls = pgTls(fields, env, host, baseDir);
  const connection: ClientConfig = {
    host: fields.host,
    port: fields.port ? Number(fields.port) : undefined,
    user: fields.user,
    password: fields.password,
    database: fields.dbname,
    ssl: tls.options,
    // Names this run to whoever finds the lock busy (pg_stat_activity).
    application_name: fields.application_name ?? `tenantform ${whoAmI()}`,
    connectionTimeoutMillis: fields.connect_timeout ? Number(fields.connect_timeout) * 1000 : 30_000,
  };
  return { connection, tls };
}
