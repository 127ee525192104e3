/**
 * What a suite needs to run tenantform and the real `terraform` on each state backend: the
 * emulator's world, PostgreSQL, an HTTP state server and terraform's environment. Call in a
 * `describe`: it starts them before the suite and stops them after.
 */
import { startWorld, type World } from '../cli/helpers';
import { ensureBuilt, requireTerraform, terraformEnvironment } from '../provider/helpers';
import { createDatabase, startPostgres, type RunningPostgres } from './postgres';
import { gitlabBackend, startHttpStateServer, type HttpStateServer } from './http-state-server';

export interface EveryBackend {
  readonly world: World;
  readonly pg: RunningPostgres;
  readonly server: HttpStateServer;
  /** terraform's environment, its provider marked with the suite's marker. */
  readonly terraformEnv: NodeJS.ProcessEnv;
  /** What the http backend's credentials need in tenantform's and terraform's environment. */
  readonly credentials: NodeJS.ProcessEnv;
}

export function withEveryBackend(marker: string): () => EveryBackend {
  let running: EveryBackend | undefined;
  beforeAll(async () => {
    requireTerraform();
    await ensureBuilt();
    const [world, pg, server] = await Promise.all([startWorld(), startPostgres(), startHttpStateServer()]);
    const terraformEnv = await terraformEnvironment(world.dir, world.emulator, `${marker}-${process.pid}`);
    running = { world, pg, server, terraformEnv, credentials: { TF_HTTP_USERNAME: server.username, TF_HTTP_PASSWORD: server.password } };
  });
  afterAll(async () => {
    await running?.world.close();
    await running?.pg.stop();
    await running?.server.close();
  });
  return () => {
    if (!running) throw new Error('the backends are not started yet');
    return running;
  };
}

/** A `terraform.backend` block of each type, a new database or state name per call. */
export const BACKEND_BLOCKS: ReadonlyArray<[string, (b: EveryBackend, name: string) => Promise<Record<string, unknown>>]> = [
  ['local', async (_b, name) => ({ local: { path: `${name}.tfstate` } })],
  ['pg', async (b, name) => ({ pg: { conn_str: await createDatabase(b.pg, name.replace(/-/g, '_')) } })],
  ['http', async (b, name) => ({ http: gitlabBackend(b.server, name) })],
];
