/**
 * tenantform_user against the emulator answering as the live platform does: a user made in the
 * console carries the platform's default notifications, and a configuration that says nothing of
 * them keeps them (no change planned, ever); `[]` turns them off.
 */
import type { State } from '../declaration';
import { createResource, importResource, readResource } from '../operations';
import { planResource } from '../plan';
import { useEmulatorClient } from '../testing';
import { user } from './user';

const ADDRESS = 'tenantform_user.admin';
const DEFAULTS = ['quota', 'reports', 'backup_daily_report'];

describe('tenantform_user and the platform defaults', () => {
  const fixture = useEmulatorClient(5);
  const base = { kind: user, address: ADDRESS };
  const plan = (config: State, prior: State | null) => planResource({ ...base, config, prior });
  const tenantId = () => fixture.emulator.world().tenants['Globex Retail'].id;

  it('imports a user made in the console and plans nothing for the notifications it has by default', async () => {
    const { client } = fixture;
    const made = await client.createUser({ tenant_id: tenantId(), login: 'console-admin', contact: { email: 'admin@globex.example' } });
    expect(made.notifications).toEqual(DEFAULTS);
    const imported = await importResource({ ...base, ctx: { client }, id: made.id });
    expect(imported.value).toMatchObject({ notifications: DEFAULTS });
    const config = { tenant_id: tenantId(), login: 'console-admin', email: 'admin@globex.example', send_activation_email: true };
    expect((await plan(config, imported.value!)).action).toBe('no-op');
    // Said explicitly, none: an update that turns them off.
    const off = await plan({ ...config, notifications: [] }, imported.value!);
    expect(off.action).toBe('update');
    expect(off.planned).toMatchObject({ notifications: [] });
  });

  it('creates a user with the platform defaults when the configuration names none, and with none for []', async () => {
    const ctx = { client: fixture.client };
    const config = (login: string): State => ({ tenant_id: tenantId(), login, email: `${login}@globex.example`, send_activation_email: false });
    const created = await createResource({ ...base, ctx, planned: (await plan(config('defaulted'), null)).planned! });
    expect(created.value).toMatchObject({ notifications: DEFAULTS });
    const read = await readResource({ ...base, ctx, state: created.value! });
    expect((await plan(config('defaulted'), read.value!)).action).toBe('no-op');

    const quiet = await createResource({ ...base, ctx, planned: (await plan({ ...config('quiet'), notifications: [] }, null)).planned! });
    expect(quiet.value).toMatchObject({ notifications: [] });
    expect((await plan({ ...config('quiet'), notifications: [] }, quiet.value!)).action).toBe('no-op');
  });
});
