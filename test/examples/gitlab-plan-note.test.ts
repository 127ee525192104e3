/**
 * The GitLab CI example's plan note script, run with node as the plan job runs it, against a
 * stand-in of GitLab's merge request notes API on loopback (GitLab itself cannot run here).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SCRIPT = join(__dirname, '..', '..', 'examples', 'gitlab-ci', 'plan-note.mjs');
const TOKEN = 'glpat-secret-token-value';
const NOTES = '/api/v4/projects/42/merge_requests/7/notes';

interface Note {
  id: number;
  body: string;
}

/** GitLab's notes endpoints as far as the script uses them: list (paged), create, update. */
function gitlab(notes: Note[], refuse = false): Server {
  return createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://gitlab');
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const send = (status: number, value: unknown) => res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(value));
      if (refuse || req.headers['private-token'] !== TOKEN) return send(refuse ? 403 : 401, { message: '403 Forbidden' });
      if (req.method === 'GET' && url.pathname === NOTES) {
        const perPage = Number(url.searchParams.get('per_page'));
        const page = Number(url.searchParams.get('page'));
        return send(200, notes.slice((page - 1) * perPage, page * perPage));
      }
      if (req.method === 'POST' && url.pathname === NOTES) {
        const note = { id: 1000 + notes.length, body: (JSON.parse(body) as { body: string }).body };
        notes.push(note);
        return send(201, note);
      }
      const match = url.pathname.match(/\/notes\/(\d+)$/);
      const existing = match && notes.find((n) => n.id === Number(match[1]));
      if (req.method === 'PUT' && existing) {
        existing.body = (JSON.parse(body) as { body: string }).body;
        return send(200, existing);
      }
      send(404, { message: '404 Not Found' });
    });
  });
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tenantform-plan-note-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function postPlan(server: Server, plan: string, exitcode: string): Promise<{ code: number | null; output: string }> {
  if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  writeFileSync(join(dir, 'plan.md'), plan);
  const env = {
    PATH: process.env.PATH,
    CI_API_V4_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v4`,
    CI_PROJECT_ID: '42',
    CI_MERGE_REQUEST_IID: '7',
    CI_JOB_URL: 'https://gitlab.example/acme/platform/-/jobs/99',
    PLAN_NOTE_TOKEN: TOKEN,
    PLAN_EXITCODE: exitcode,
  };
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [SCRIPT], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.on('close', (code) => resolve({ code, output }));
  });
}

test('posts the plan once, then updates that note on later pushes, past the first page of notes', async () => {
  // 120 notes of reviewers first: the script's own note lands on the second page.
  const notes: Note[] = Array.from({ length: 120 }, (_, i) => ({ id: i + 1, body: `review ${i + 1}` }));
  const server = gitlab(notes);
  try {
    expect((await postPlan(server, '### Plan: 2 to add\n', '2')).code).toBe(0);
    expect((await postPlan(server, '### Plan: 3 to add\n', '2')).code).toBe(0);
    const ours = notes.filter((n) => n.body.includes('<!-- tenantform-plan -->'));
    expect(ours).toHaveLength(1);
    expect(ours[0].body).toContain('### Plan: 3 to add');

    expect((await postPlan(server, '', '1')).code).toBe(0);
    expect(ours[0].body).toContain('tenantform plan failed');
    expect(ours[0].body).toContain('https://gitlab.example/acme/platform/-/jobs/99');
    expect(notes).toHaveLength(121);
  } finally {
    server.close();
  }
});

test('a refused request fails the script without printing the token', async () => {
  const server = gitlab([], true);
  try {
    const result = await postPlan(server, '### Plan\n', '2');
    expect(result.code).not.toBe(0);
    expect(result.output).toContain(`GET ${NOTES} answered 403`);
    expect(result.output).not.toContain(TOKEN);
  } finally {
    server.close();
  }
});
