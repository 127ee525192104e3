import type { StateDocument } from '../state/model';
import { checkPush } from './push';

const doc = (serial: number, lineage = 'l-1', names: string[] = []): StateDocument => ({
  version: 4,
  terraform_version: '1.11.0',
  serial,
  lineage,
  outputs: {},
  resources: names.map((name) => ({ mode: 'managed', type: 'tenantform_infra_component', name, provider: 'p', instances: [] })),
  check_results: null,
});

describe('state push', () => {
  it('writes a newer serial of the same lineage, or anything where there is no state yet', () => {
    expect(checkPush(doc(3), doc(4, 'l-1', ['a']), false)).toEqual({ write: doc(4, 'l-1', ['a']) });
    expect(checkPush(undefined, doc(1, 'other'), false)).toEqual({ write: doc(1, 'other') });
    expect(checkPush(doc(3, 'l-1', ['a']), doc(3, 'l-1', ['a']), false)).toEqual({ write: doc(3, 'l-1', ['a']) });
  });

  it('refuses another lineage, an older serial and a different state with the same serial', () => {
    expect(checkPush(doc(3), doc(9, 'l-2'), false)).toEqual({ refused: expect.stringContaining('lineage l-2') });
    expect(checkPush(doc(3), doc(2), false)).toEqual({ refused: expect.stringContaining("serial 2, older than the backend's 3") });
    expect(checkPush(doc(3, 'l-1', ['a']), doc(3, 'l-1', ['b']), false)).toEqual({ refused: expect.stringContaining('same serial 3') });
  });

  it('with force, writes it with a serial above the current one', () => {
    expect(checkPush(doc(7), doc(2, 'l-2'), true)).toEqual({ write: doc(8, 'l-2') });
    expect(checkPush(doc(7), doc(12, 'l-2'), true)).toEqual({ write: doc(12, 'l-2') });
  });
});
