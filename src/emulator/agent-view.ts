/**
 * An agent as the platform answers it: the vendor's `Agent` of the agents v2 reference
 * (test/contract/vendor/agents-v2.openapi.json, components.schemas.Agent), rendered from the
 * emulator's stored agent. The stored agent keeps only what the emulator decides (host name,
 * tenant, OS family, online, up to date, unit); the other members are derived from it, the same
 * on every read: registration data from the agent id, the platform from the OS family, versions
 * from `up_to_date`, unattended update from the update settings that apply (spec 02).
 */
import { createHash } from 'node:crypto';
import type { Agent, AgentUpdateSettings, MaintenanceWindow, Store } from './store';

// ---------------------------------------------------------------- the vendor's shape

export type OsFamily = 'UNKNOWN' | 'WINDOWS' | 'LINUX' | 'MACOSX' | 'SOLARIS';
export type Arch = 'X86' | 'X64' | 'ARM' | 'ARM64';

/** `{build, release_id, release_name?}` of core_version and of software units. */
export interface ReleaseVersion {
  build: string;
  release_id: string;
  release_name?: string;
}

export interface InstallerVersion {
  major: number;
  minor: number;
  build_number: number;
}

/** The reference's `SoftwareUnit`. */
export interface SoftwareUnit {
  name: string;
  version: { current: ReleaseVersion; latest?: ReleaseVersion };
}

export interface UnattendedUpdate {
  automatic: boolean;
  update_channel: string;
  status: 'OK' | 'SUSPENDED_ON_FAILURES';
  inherited_from_tenant_id?: string;
  maintenance_window?: MaintenanceWindow;
}

/** The reference's `Agent`: every required member, and the optional ones the emulator knows. */
export interface VendorAgent {
  id: string;
  name: string;
  hostname: string;
  tenant: { id: string; name: string };
  platform: { family: OsFamily; arch: Arch; name: string; version_major: number; version_minor: number };
  online: boolean;
  enabled: boolean;
  auto_update: boolean;
  registration_date: string;
  registration_id: string;
  /** `UTC` or `±hhmm` (the reference's `TimeZoneOffset`). */
  timezone: string;
  meta: Record<string, unknown>;
  installer_version: { current: InstallerVersion; latest?: InstallerVersion };
  core_version: { current: ReleaseVersion; latest?: ReleaseVersion };
  units: SoftwareUnit[];
  unattended_update?: UnattendedUpdate;
}

// ---------------------------------------------------------------- what is derived

export const OS_FAMILIES: readonly OsFamily[] = ['UNKNOWN', 'WINDOWS', 'LINUX', 'MACOSX', 'SOLARIS'];

const PLATFORMS: Record<OsFamily, Omit<VendorAgent['platform'], 'family'>> = {
  WINDOWS: { arch: 'X64', name: 'Microsoft Windows Server 2022 Standard', version_major: 10, version_minor: 0 },
  LINUX: { arch: 'X64', name: 'Ubuntu 22.04.4 LTS', version_major: 5, version_minor: 15 },
  MACOSX: { arch: 'ARM64', name: 'macOS Sonoma 14.5', version_major: 14, version_minor: 5 },
  SOLARIS: { arch: 'X64', name: 'Oracle Solaris 11.4', version_major: 11, version_minor: 4 },
  UNKNOWN: { arch: 'X64', name: 'Unknown', version_major: 0, version_minor: 0 },
};

/** The release every agent is offered, and the one an agent that is not up to date still runs. */
const LATEST = { core: { build: '24.6.38396', release_id: 'C24.06', release_name: '24.6' }, installer: { major: 24, minor: 6, build_number: 38396 } };
const PREVIOUS = { core: { build: '24.3.37719', release_id: 'C24.03', release_name: '24.3' }, installer: { major: 24, minor: 3, build_number: 37719 } };

const TIMEZONES = ['UTC', '+0100', '-0500', '+0530'];
/** Agents registered in the 30 days after the seed world was made. */
const REGISTERED_FROM = Date.parse('2024-01-15T09:00:00Z');

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** A uuid (version 5 layout) derived from the agent id: the same for the same agent. */
function derivedUuid(text: string): string {
  const h = digest(text).subarray(0, 16);
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const x = h.toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`;
}

export function osFamilyOf(stored: string): OsFamily {
  const upper = stored.toUpperCase();
  return OS_FAMILIES.find((f) => f === upper) ?? 'UNKNOWN';
}

/** spec 02: own master settings, else the nearest ancestor's, never looking above a visibility barrier. */
export function resolveMaster(store: Store, tenantId: string): AgentUpdateSettings | undefined {
  const byTenant = store.world.agentUpdateSettings.byTenant;
  for (const t of store.pathUp(tenantId)) {
    const own = byTenant[t.id];
    if (own !== undefined) return own;
    if (t.barrier) return undefined;
  }
  return undefined;
}

/** The settings that apply to the agent: its own, else the master settings (with where they live). */
function unattendedUpdate(store: Store, a: Agent): UnattendedUpdate | undefined {
  const own = store.world.agentUpdateSettings.byAgent[a.id];
  const applied = own ?? resolveMaster(store, a.tenant_id);
  if (applied === undefined) return undefined;
  const out: UnattendedUpdate = { automatic: applied.automatic, update_channel: applied.update_channel, status: 'OK' };
  if (own === undefined && applied.tenant_id !== undefined) out.inherited_from_tenant_id = applied.tenant_id;
  if (applied.maintenance_window !== undefined) out.maintenance_window = structuredClone(applied.maintenance_window);
  return out;
}

/** The stored agent as the vendor's `Agent`. */
export function vendorAgent(store: Store, a: Agent): VendorAgent {
  const family = osFamilyOf(a.os_family);
  const h = digest(a.id);
  const running = a.up_to_date ? LATEST : PREVIOUS;
  const registered = new Date(REGISTERED_FROM + (h.readUInt32BE(0) % (30 * 24 * 60)) * 60_000).toISOString().replace('.000Z', 'Z');
  const update = unattendedUpdate(store, a);
  return {
    id: a.id,
    name: a.hostname,
    hostname: a.hostname,
    tenant: { id: a.tenant_id, name: store.tenant(a.tenant_id)?.name ?? '' },
    platform: { family, ...PLATFORMS[family] },
    online: a.online,
    enabled: true,
    // the agent updates itself when the unattended update settings that apply say so
    auto_update: update?.automatic ?? false,
    registration_date: registered,
    registration_id: derivedUuid(`registration:${a.id}`),
    timezone: TIMEZONES[h[4] % TIMEZONES.length],
    meta: {},
    installer_version: { current: { ...running.installer }, latest: { ...LATEST.installer } },
    core_version: { current: { ...running.core }, latest: { ...LATEST.core } },
    // the stored unit is the agent's software unit; it runs the agent's release
    units: [{ name: a.unit, version: { current: { ...running.core }, latest: { ...LATEST.core } } }],
    ...(update !== undefined ? { unattended_update: update } : {}),
  };
}
