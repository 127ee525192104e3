import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configureCliLogging, formatLine, levelOf, log, logs } from './logging';

describe('TF_LOG', () => {
  afterEach(() => configureCliLogging({}));

  it('takes the levels Terraform takes, any case; JSON is TRACE as JSON lines; anything else is TRACE', () => {
    expect(levelOf(undefined)).toBeUndefined();
    expect(levelOf('')).toBeUndefined();
    expect(levelOf('off')).toBeUndefined();
    expect(levelOf('debug')).toEqual({ level: 'debug', json: false });
    expect(levelOf('WARN')).toEqual({ level: 'warn', json: false });
    expect(levelOf('json')).toEqual({ level: 'trace', json: true });
    expect(levelOf('1')).toEqual({ level: 'trace', json: false, unknown: '1' });
  });

  it('writes lines at the level and above, to TF_LOG_PATH, readable by its owner only', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tenantform-log-'));
    try {
      const path = join(dir, 'tenantform.log');
      configureCliLogging({ TF_LOG: 'INFO', TF_LOG_PATH: path });
      expect(logs('debug')).toBe(false);
      log('debug', 'not written');
      log('info', 'state written', { backend: 'pg', bytes: 120 });
      const text = readFileSync(path, 'utf8');
      expect(text).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z \[INFO\] state written: backend=pg bytes=120\n$/);
      expect(statSync(path).mode & 0o077).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps one entry on one line, and quotes values with spaces', () => {
    const at = new Date('2026-01-02T03:04:05.006Z');
    expect(formatLine('text', 'debug', 'answer', { message: 'line one\nline two', ok: true }, at)).toBe(
      '2026-01-02T03:04:05.006Z [DEBUG] answer: message="line one\\nline two" ok=true\n',
    );
    expect(JSON.parse(formatLine('json', 'warn', 'retry', { status: 503 }, at))).toEqual({
      '@level': 'warn',
      '@message': 'retry',
      '@module': 'tenantform',
      '@timestamp': '2026-01-02T03:04:05.006000Z',
      status: 503,
    });
  });
});
