import type { Client, ClientConfig } from 'pg';
import type { JournalStore } from '../state/model';
import { backendErrors } from './errors';
import type { LockHolder, LockInfo } from './lock-info';
import { connectionConfig } from './pg-connection';
import type { PgTls } from './pg-tls';
import { tlsRemedy } from './pg-tls-failure';
import { noAnswerWithin, type BackendSettings } from './settings';
import type { ForceUnlockOutcome, HeldLock, LockAttempt, StateBackend } from './types';

/** tenantform's own table beside Terraform's, for the apply journal. */
const JOURNAL_TABLE = 'tenantform_journal';
const TABLE = 'states';
/** The advisory lock Terraform takes while a workspace's row does not exist yet. */
const CREATION_LOCK = '-1';

export interface PgSettings {
  readonly connection: ClientConfig;
  readonly tls: PgTls;
  /** host:port/database, for messages (no password). */
  readonly where: string;
  readonly schema: string;
  readonly workspace: string;
  readonly skipSchemaCreation: boolean;
  readonly skipTableCreation: boolean;
  readonly skipIndexCreation: boolean;
  /** How long one query waits for its answer (`STATE_TIMEOUT`). */
  readonly timeoutMs: number;
}

/** `baseDir` is where relative TLS file paths start: the stack's folder, where terraform runs. */
export function pgSettings(s: BackendSettings, workspace: string, baseDir: string = process.cwd()): PgSettings {
  const { connection, tls } = connectionConfig(s.string('conn_str', 'PG_CONN_STR'), s.env, baseDir);
  return {
    connection,
    tls,
    where: `${connection.host ?? process.env.PGHOST ?? 'localhost'}:${connection.port ?? process.env.PGPORT ?? 5432}/${connection.database ?? process.env.PGDATABASE ?? ''}`,
    schema: s.string('schema_name', 'PG_SCHEMA_NAME') ?? 'terraform_remote_state',
    workspace,
    skipSchemaCreation: s.boolean('skip_schema_creation', 'PG_SKIP_SCHEMA_CREATION'),
    skipTableCreation: s.boolean('skip_table_creation', 'PG_SKIP_TABLE_CREATION'),
    skipIndexCreation: s.boolean('skip_index_creation', 'PG_SKIP_INDEX_CREATION'),
    timeoutMs: s.callTimeoutMs(),
  };
}

const quote = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

/**
 * Terraform's `pg` backend: a row per workspace in `<schema>.states`, and session-level
 * advisory locks on one connection held for the whole run (the row's id, or -1 while the
 * row does not exist), taken and released with the same queries Terraform uses.
 */
export class PgBackend implements StateBackend {
  readonly type = 'pg';
  private client?: Promise<Client>;
  private heldKey?: string;

  constructor(private readonly settings: PgSettings) {}

  get location(): string {
    return `pg ${this.settings.where} (schema ${this.settings.schema}, workspace ${this.settings.workspace})`;
  }

  private get table(): string {
    return `${quote(this.settings.schema)}.${TABLE}`;
  }

  /** The workspaces the table holds (each a row), as `terraform workspace list` lists them: default always. */
  async workspaces(): Promise<string[]> {
    const db = await this.connect();
    const exists = await this.query(db, 'SELECT to_regclass($1) IS NOT NULL AS found', [this.table]);
    const names = (exists.rows[0] as { found: boolean }).found
      ? ((await this.query(db, `SELECT name FROM ${this.table}`)).rows as Array<{ name: string }>).map((r) => r.name)
      : [];
    return [...new Set(['default', ...names])].sort();
  }

  async read(): Promise<string | undefined> {
    const db = await this.connect();
    const r = await this.query(db, `SELECT data FROM ${this.table} WHERE name = $1`, [this.settings.workspace]);
    const data = r.rows[0]?.data as string | null | undefined;
    return data ? data : undefined;
  }

  async write(text: string): Promise<void> {
    const db = await this.connect();
    await this.query(db, `INSERT INTO ${this.table} (name, data) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET data = $2 WHERE ${TABLE}.name = $1`, [
      this.settings.workspace,
      text,
    ]);
  }

  /**
   * The apply journal, in a table of its own beside Terraform's (which Terraform never reads):
   * a row per line, by workspace. None where the tables are managed outside (skip_table_creation).
   */
  get journal(): JournalStore | undefined {
    if (this.settings.skipTableCreation) return undefined;
    const table = `${quote(this.settings.schema)}.${JOURNAL_TABLE}`;
    const name = this.settings.workspace;
    let created = false;
    const ready = async () => {
      const db = await this.connect();
      if (!created) {
        await this.query(db, `CREATE TABLE IF NOT EXISTS ${table} (seq bigserial PRIMARY KEY, name text NOT NULL, line text NOT NULL)`);
        await this.query(db, `CREATE INDEX IF NOT EXISTS ${JOURNAL_TABLE}_by_name ON ${table} (name, seq)`);
        created = true;
      }
      return db;
    };
    return {
      location: `${this.location}, table ${JOURNAL_TABLE}`,
      restart: async (header) => {
        // One statement: the old journal gone and the new header in, or neither.
        await this.query(await ready(), `WITH gone AS (DELETE FROM ${table} WHERE name = $1) INSERT INTO ${table} (name, line) VALUES ($1, $2)`, [
          name,
          header,
        ]);
      },
      append: async (lines) => {
        await this.query(await ready(), `INSERT INTO ${table} (name, line) SELECT $1, line FROM unnest($2::text[]) WITH ORDINALITY AS l(line, n) ORDER BY n`, [
          name,
          lines,
        ]);
      },
      read: async () => {
        const db = await this.connect();
        const exists = await this.query(db, 'SELECT to_regclass($1) IS NOT NULL AS present', [table]);
        if (!(exists.rows[0] as { present: boolean }).present) return undefined;
        const rows = (await this.query(db, `SELECT line FROM ${table} WHERE name = $1 ORDER BY seq`, [name])).rows as Array<{ line: string }>;
        return rows.length === 0 ? undefined : { header: rows[0].line, lines: rows.slice(1).map((r) => r.line) };
      },
      remove: async () => {
        await this.query(await ready(), `DELETE FROM ${table} WHERE name = $1`, [name]);
      },
    };
  }

  async tryLock(info: LockInfo): Promise<LockAttempt> {
    const db = await this.connect();
    const r = await this.query(
      db,
      `SELECT ${TABLE}.id, pg_try_advisory_lock(${TABLE}.id) AS row_lock, pg_try_advisory_lock(-1) AS creation_lock FROM ${this.table} WHERE ${TABLE}.name = $1`,
      [this.settings.workspace],
    );
    const row = r.rows[0] as { id: string; row_lock: boolean; creation_lock: boolean } | undefined;
    let key: string;
    if (!row) {
      const c = await this.query(db, `SELECT pg_try_advisory_lock(-1) AS locked`);
      if (!(c.rows[0] as { locked: boolean }).locked) return { busy: await this.holderOf(db, CREATION_LOCK, 'creating the workspace') };
      key = CREATION_LOCK;
    } else if (!row.row_lock) {
      if (row.creation_lock) await this.unlockKey(db, CREATION_LOCK);
      return { busy: await this.holderOf(db, String(row.id)) };
    } else if (!row.creation_lock) {
      await this.unlockKey(db, String(row.id));
      return { busy: await this.holderOf(db, CREATION_LOCK, 'creating the workspace') };
    } else {
      await this.unlockKey(db, CREATION_LOCK);
      key = String(row.id);
    }
    this.heldKey = key;
    const held: HeldLock = {
      info: { ...info, Path: key },
      release: async () => {
        if (this.heldKey !== key) return;
        this.heldKey = undefined;
        await this.unlockKey(db, key);
      },
    };
    return { held };
  }

  currentLock(): Promise<LockHolder | undefined> {
    return this.currentHolder();
  }

  private async currentHolder(): Promise<SessionHolder | undefined> {
    const db = await this.connect();
    const r = await this.query(db, `SELECT id FROM ${this.table} WHERE name = $1`, [this.settings.workspace]);
    const key = r.rows[0] ? String((r.rows[0] as { id: string }).id) : CREATION_LOCK;
    const holder = await this.holderOf(db, key);
    return holder.description === undefined ? undefined : holder;
  }

  async forceUnlock(): Promise<ForceUnlockOutcome> {
    const holder = await this.currentHolder();
    if (!holder) throw backendErrors.lockNotFound(this.location);
    throw backendErrors.forceUnlockUnsupported(
      this.location,
      `the lock is a PostgreSQL session lock: it goes when its session ends, and only that session can release it. It is held by ${holder.description}. ` +
        `If that run is stuck, end its session (SELECT pg_terminate_backend(${holder.pid ?? '<pid>'})).`,
    );
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client) await (await client.catch(() => undefined))?.end().catch(() => undefined);
  }

  private connect(): Promise<Client> {
    this.client ??= (async () => {
      // Loaded when a pg backend is used: most runs never need the driver.
      const { Client } = await import('pg');
      const client = new Client({ ...this.settings.connection, query_timeout: this.settings.timeoutMs });
      // A connection dropped later surfaces on the next query; an unhandled 'error' event would end the process.
      client.on('error', () => undefined);
      try {
        await client.connect();
        await this.prepare(client);
      } catch (err) {
        await client.end().catch(() => undefined);
        const remedy = tlsRemedy(err, this.settings.tls, client.user);
        if (remedy) throw backendErrors.tlsFailed(this.location, client.host, (err as Error).message, remedy);
        throw backendErrors.unreachable(this.location, (err as Error).message);
      }
      return client;
    })();
    return this.client;
  }

  /** Terraform's schema, sequence, table and index, unless skipped. */
  private async prepare(db: Client): Promise<void> {
    const s = this.settings;
    if (!s.skipSchemaCreation) {
      const r = await db.query('SELECT count(1) AS n FROM information_schema.schemata WHERE schema_name = $1', [s.schema]);
      if (Number((r.rows[0] as { n: string }).n) < 1) await db.query(`CREATE SCHEMA IF NOT EXISTS ${quote(s.schema)}`);
    }
    if (!s.skipTableCreation) {
      await db.query('CREATE SEQUENCE IF NOT EXISTS public.global_states_id_seq AS bigint');
      await db.query(
        `CREATE TABLE IF NOT EXISTS ${this.table} (id bigint NOT NULL DEFAULT nextval('public.global_states_id_seq') PRIMARY KEY, name text UNIQUE, data text)`,
      );
    }
    if (!s.skipIndexCreation) await db.query(`CREATE UNIQUE INDEX IF NOT EXISTS states_by_name ON ${this.table} (name)`);
  }

  private async query(db: Client, text: string, values?: unknown[]) {
    try {
      return await db.query(text, values);
    } catch (err) {
      // node-postgres names a query_timeout "Query read timeout".
      const timedOut = (err as Error).message === 'Query read timeout';
      throw backendErrors.unreachable(this.location, timedOut ? noAnswerWithin(this.settings.timeoutMs) : (err as Error).message);
    }
  }

  private async unlockKey(db: Client, key: string): Promise<void> {
    await this.query(db, `SELECT pg_advisory_unlock(${Number(key)})`);
  }

  /** Who holds an advisory lock: the PostgreSQL session, as pg_locks and pg_stat_activity tell it. */
  private async holderOf(db: Client, key: string, doing?: string): Promise<SessionHolder> {
    const n = BigInt.asUintN(64, BigInt(key));
    const r = await this.query(
      db,
      `SELECT a.pid, a.usename, a.application_name, host(a.client_addr) AS client, a.backend_start
         FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
        WHERE l.locktype = 'advisory' AND l.granted AND l.classid = $1::bigint::oid AND l.objid = $2::bigint::oid AND l.objsubid = 1 AND l.pid <> pg_backend_pid()`,
      [String(n >> 32n), String(n & 0xffffffffn)],
    );
    const s = r.rows[0] as { pid: number; usename: string; application_name: string; client: string | null; backend_start: Date } | undefined;
    if (!s) return {};
    const app = s.application_name ? `application "${s.application_name}", ` : '';
    return {
      description:
        `the PostgreSQL session ${s.pid} of user ${s.usename} (${app}from ${s.client ?? 'a local socket'}, connected since ${s.backend_start.toISOString()})` +
        (doing ? `, ${doing}` : ''),
      Created: s.backend_start.toISOString(),
      pid: s.pid,
    };
  }
}

/** The holder of a session lock, with the process id of its PostgreSQL session. */
type SessionHolder = LockHolder & { readonly pid?: number };
