import { BackendSettings, STATE_TIMEOUT } from './settings';

describe('the time a state backend call may take', () => {
  const timeout = (value?: string) => new BackendSettings('pg', {}, value === undefined ? {} : { [STATE_TIMEOUT.variable]: value }).callTimeoutMs();

  it('is 30 s unless TENANTFORM_STATE_TIMEOUT gives a duration', () => {
    expect(timeout()).toBe(30_000);
    expect(timeout('')).toBe(30_000);
    expect(timeout('90s')).toBe(90_000);
    expect(timeout('1m30s')).toBe(90_000);
  });

  it('refuses a number without its unit, and zero, naming the variable', () => {
    expect(() => timeout('30')).toThrow('TENANTFORM_STATE_TIMEOUT: must be a duration with its unit, such as 30s or 2m (found "30")');
    expect(() => timeout('0')).toThrow('TENANTFORM_STATE_TIMEOUT: must be a duration');
  });
});
