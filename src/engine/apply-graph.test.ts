import { applyGraph, batchNode } from './apply-graph';
import type { PlannedChange } from '../plans/model';
import { changeAt } from './testing';
import type { RecordedObject } from '../state/model';

const change = (address: string, action: PlannedChange['action']) => changeAt(address, action);
const recorded = (address: string, dependencies: string[]): RecordedObject => {
  const [type, name] = address.split('.');
  return { address, mode: 'managed', type, name, schemaVersion: 0, attributes: { id: name }, dependencies, provider: 'tenantform', sensitive: [] };
};
const changesOf = (...cs: PlannedChange[]) => new Map(cs.map((c) => [c.address, c]));
const writesInBatch = (type: string) => type === 'tenantform_agent_update_settings';
const asObject = (nodes: Map<string, Set<string>>) => Object.fromEntries([...nodes].map(([a, ds]) => [a, [...ds].sort()]));

describe('the graph an apply runs', () => {
  it('deletes an object after the deleted objects recorded as depending on it, count instances included', () => {
    const nodes = applyGraph({
      changes: changesOf(
        change('tenantform_tenant.parent', 'delete'),
        change('tenantform_user.admin', 'delete'),
        change('tenantform_user.many[0]', 'delete'),
        change('tenantform_user.kept', 'no-op'),
      ),
      configDeps: new Map(),
      recorded: [
        recorded('tenantform_tenant.parent', []),
        recorded('tenantform_user.admin', ['tenantform_tenant.parent']),
        recorded('tenantform_user.many[0]', ['tenantform_tenant.parent']),
        recorded('tenantform_user.kept', ['tenantform_tenant.parent']),
      ],
      knownData: {},
      writesInBatch,
      isGroupNode: () => false,
    });
    expect(asObject(nodes)).toEqual({
      'tenantform_tenant.parent': ['tenantform_user.admin', 'tenantform_user.many[0]'],
      'tenantform_user.admin': [],
      'tenantform_user.many[0]': [],
    });
  });

  it('creates after what the configuration says an object needs, and reads late data sources first', () => {
    const nodes = applyGraph({
      changes: changesOf(change('tenantform_tenant.t', 'create'), change('tenantform_user.u', 'create')),
      configDeps: new Map([
        ['tenantform_tenant.t', new Set(['data.tenantform_tenant.root'])],
        ['tenantform_user.u', new Set(['tenantform_tenant.t', 'data.tenantform_application.backup'])],
        ['data.tenantform_tenant.root', new Set<string>()],
        ['data.tenantform_application.backup', new Set<string>()],
      ]),
      recorded: [],
      knownData: { 'data.tenantform_application.backup': {} },
      writesInBatch,
      isGroupNode: () => false,
    });
    expect(asObject(nodes)).toEqual({
      'tenantform_tenant.t': ['data.tenantform_tenant.root'],
      'tenantform_user.u': ['tenantform_tenant.t'],
      'data.tenantform_tenant.root': [],
    });
  });

  it('merges the agent update settings to write into one batch node', () => {
    const nodes = applyGraph({
      changes: changesOf(
        change('tenantform_agent_update_settings.a', 'create'),
        change('tenantform_agent_update_settings.b', 'update'),
        change('tenantform_tenant.t', 'create'),
      ),
      configDeps: new Map([
        ['tenantform_agent_update_settings.a', new Set(['tenantform_tenant.t'])],
        ['tenantform_agent_update_settings.b', new Set<string>()],
      ]),
      recorded: [],
      knownData: {},
      writesInBatch,
      isGroupNode: () => false,
    });
    expect(asObject(nodes)).toEqual({ [batchNode('tenantform_agent_update_settings')]: ['tenantform_tenant.t'], 'tenantform_tenant.t': [] });
  });

  it('keeps a group node of a repeated block, so what needs all its instances waits on them once', () => {
    const nodes = applyGraph({
      changes: changesOf(
        change('tenantform_tenant.customer["a"]', 'create'),
        change('tenantform_tenant.customer["b"]', 'create'),
        change('tenantform_user.admin["a"]', 'create'),
        change('tenantform_user.admin["b"]', 'create'),
      ),
      configDeps: new Map([
        ['tenantform_tenant.customer["a"]', new Set<string>()],
        ['tenantform_tenant.customer["b"]', new Set<string>()],
        ['tenantform_user.admin["a"]', new Set(['tenantform_tenant.customer'])],
        ['tenantform_user.admin["b"]', new Set(['tenantform_tenant.customer'])],
        ['tenantform_tenant.customer', new Set(['tenantform_tenant.customer["a"]', 'tenantform_tenant.customer["b"]'])],
      ]),
      recorded: [],
      knownData: {},
      writesInBatch,
      isGroupNode: (a) => a === 'tenantform_tenant.customer',
    });
    expect(asObject(nodes)).toEqual({
      'tenantform_tenant.customer["a"]': [],
      'tenantform_tenant.customer["b"]': [],
      'tenantform_user.admin["a"]': ['tenantform_tenant.customer'],
      'tenantform_user.admin["b"]': ['tenantform_tenant.customer'],
      'tenantform_tenant.customer': ['tenantform_tenant.customer["a"]', 'tenantform_tenant.customer["b"]'],
    });
  });
});
