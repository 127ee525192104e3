import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TenantformError } from '../errors';
import { acquireLock, forceUnlock, lockPath, readLock } from './lock';

describe('state lock', () => {
  let dir: string;
  let state: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tenantform-lock-'));
    state = join(dir, 'terraform.main.tfstate');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('lets one run hold it and tells a second who, since when, and how to force-unlock', () => {
    const lock = acquireLock(state, 'OperationTypeApply', '0.1.0');
    expect(readLock(state)).toEqual(lock.info);
    expect(lock.info).toMatchObject({ Operation: 'OperationTypeApply', Version: '0.1.0', Path: state, Who: expect.stringContaining('@') });
    let error: unknown;
    try {
      acquireLock(state, 'OperationTypePlan', '0.1.0');
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(TenantformError);
    const detail = (error as TenantformError).detail;
    expect(detail).toContain(lock.info.Who);
    expect(detail).toContain(lock.info.Created);
    expect(detail).toContain('OperationTypeApply');
    expect(detail).toContain(`tenantform force-unlock ${lock.info.ID}`);
    lock.release();
    expect(existsSync(lockPath(state))).toBe(false);
    acquireLock(state, 'OperationTypePlan', '0.1.0').release();
  });

  it('force-unlock removes a lock only with its id', () => {
    const lock = acquireLock(state, 'OperationTypeApply', '0.1.0');
    expect(() => forceUnlock(state, 'wrong')).toThrow('Lock id does not match');
    expect(forceUnlock(state, lock.info.ID).ID).toBe(lock.info.ID);
    expect(() => forceUnlock(state, lock.info.ID)).toThrow('not locked');
    // Releasing a lock someone removed is harmless, and never removes a newer lock.
    const newer = acquireLock(state, 'OperationTypePlan', '0.1.0');
    lock.release();
    expect(readLock(state)?.ID).toBe(newer.info.ID);
    newer.release();
  });
});
