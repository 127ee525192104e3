/**
 * Running the pipeline scripts of pipelines/ as a CI runner runs them: node on the script, in
 * the job's folder, with the runner's variables; and stand-ins of the forges' APIs on loopback
 * (GitHub and GitLab themselves cannot run here).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { CLI } from '../cli/helpers';

export const PIPELINES = join(__dirname, '..', '..', 'pipelines');

export interface ScriptResult {
  code: number | null;
  /** stdout and stderr together, as the job log shows them. */
  output: string;
}

export function runScript(script: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<ScriptResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** The inputs of an action or a component as the scripts read them: `INPUT_<NAME>`. */
export const inputVariables = (inputs: Record<string, string>) =>
  Object.fromEntries(Object.entries(inputs).map(([k, v]) => [`INPUT_${k.toUpperCase().replace(/-/g, '_')}`, v]));

/** The project's own tenantform, as its devDependency puts it: node_modules/.bin/tenantform. */
export function installAsDevDependency(dir: string): void {
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(CLI, join(dir, 'node_modules', '.bin', 'tenantform'));
}

export interface ApiRequest {
  method: string;
  url: URL;
  headers: IncomingMessage['headers'];
  body: any;
}

export interface Api {
  readonly url: string;
  /** `METHOD /path` of every request, in order. */
  readonly requests: string[];
  close(): Promise<void>;
}

/** A JSON API on a free loopback port: `handle` answers `[status, body]`, a Buffer as bytes. */
export async function startApi(handle: (req: ApiRequest) => [number, unknown]): Promise<Api> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://loopback');
      requests.push(`${req.method} ${url.pathname}`);
      const [status, value] = handle({
        method: req.method ?? 'GET',
        url,
        headers: req.headers,
        body: text && req.headers['content-type'] === 'application/json' ? JSON.parse(text) : undefined,
      });
      if (status === 204) return res.writeHead(204).end();
      if (Buffer.isBuffer(value)) return res.writeHead(status, { 'Content-Type': 'application/octet-stream' }).end(value);
      res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(value));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
