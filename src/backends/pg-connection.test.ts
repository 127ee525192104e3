import { TenantformError } from '../errors';
import { connectionConfig } from './pg-connection';

describe('the pg backend connection string', () => {
  it('takes the parts of a URL, escapes decoded', () => {
    const { connection } = connectionConfig('postgres://ci%40corp:p%25ss@db.example.com:5433/state%20db?sslmode=disable', {}, '/');
    expect(connection).toMatchObject({ host: 'db.example.com', port: 5433, user: 'ci@corp', password: 'p%ss', database: 'state db' });
  });

  it('refuses a part with a broken escape, naming the part and never its value', () => {
    const attempt = () => connectionConfig('postgres://ci:s3cr%zzet@db.example.com/state', {}, '/');
    expect(attempt).toThrow(TenantformError);
    expect(attempt).toThrow(/conn_str: its password holds a % that starts no escape \(write a literal % as %25\)/);
    try {
      attempt();
    } catch (err) {
      expect(String((err as Error).message)).not.toContain('s3cr');
      expect(String((err as Error).message)).not.toMatch(/URI malformed/);
    }
  });
});
