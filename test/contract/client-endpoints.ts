/**
 * The endpoints tenantform's platform client calls, read from its source (`src/api/areas/`,
 * `src/api/token.ts`): each `{method, endpoint}` of a call, and each paged listing (a GET).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const PREFIXES: Record<string, string> = { AM: '/api/2', AGENTS: '/api/agent_manager/v2', EVENTS: '/api/event_manager/v1', ALERTS: '/api/alert_manager/v1' };

export interface ClientEndpoint {
  method: string;
  /** The path with `{name}` parameters, e.g. `/api/2/tenants/{tenant_id}`. */
  path: string;
}

export function clientEndpoints(root = join(__dirname, '../..')): ClientEndpoint[] {
  const dir = join(root, 'src/api/areas');
  const found = new Map<string, ClientEndpoint>();
  const add = (method: string, path: string) => found.set(`${method} ${path}`, { method, path });
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
    const text = readFileSync(join(dir, file), 'utf8');
    for (const m of text.matchAll(/method: '(GET|PUT|POST|DELETE)',\s*endpoint: `\$\{(\w+)\}([^`]*)`/g)) add(m[1], `${PREFIXES[m[2]]}${m[3]}`);
    for (const m of text.matchAll(/\[paged\]\(`\$\{(\w+)\}([^`]*)`/g)) add('GET', `${PREFIXES[m[1]]}${m[2]}`);
  }
  const token = readFileSync(join(root, 'src/api/token.ts'), 'utf8').match(/TOKEN_PATH = '([^']+)'/);
  if (token) add('POST', token[1]);
  return [...found.values()].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}
