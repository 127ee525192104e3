/**
 * The provider served over gRPC in this process, as the provider process serves it (the same
 * handshake module and protocol definition), with a client that sends requests the way
 * Terraform's plugin client does: proto messages, msgpack values, streamed answers read to
 * their end. For Terraform versions not installed here (1.12 and newer).
 */
import * as grpc from '@grpc/grpc-js';
import { encode } from '@msgpack/msgpack';
import { startEmulator } from '../../src/emulator';
import { servePlugin, type RunningPlugin } from '../../src/provider/handshake';
import { loadProtocol } from '../../src/provider/protocol';
import { TenantformProvider } from '../../src/provider/server';
import { decodeMsgpack } from '../../src/provider/values';
import { KINDS } from '../../src/resources/registry';

type Any = Record<string, any>;

export const msgpack = (v: unknown) => ({ msgpack: Buffer.from(encode(v)) });
export const NIL = { msgpack: Buffer.from([0xc0]) };

/** The value a DynamicValue of an answer carries. */
export function decoded(value: { msgpack?: Uint8Array | null } | null | undefined): Any | null {
  if (!value?.msgpack || value.msgpack.length === 0) throw new Error('the answer carries no msgpack value');
  return decodeMsgpack(value.msgpack) as Any | null;
}

export interface ProviderOverGrpc {
  /** A unary call of `tfplugin6.Provider`. */
  call(name: string, request: object): Promise<Any>;
  /** A streaming call, read to its end. */
  stream(name: string, request: object): Promise<Any[]>;
  close(): Promise<void>;
}

export async function serveOverGrpc(env: Record<string, string>): Promise<ProviderOverGrpc> {
  const provider = new TenantformProvider({ kinds: KINDS, env });
  const plugin: RunningPlugin = await servePlugin({
    env: { TF_DISABLE_PLUGIN_TLS: '1' },
    handlers: () => provider.handlers(),
    onListening: () => undefined,
    // The test closes the server itself.
    onShutdown: () => undefined,
    log: () => undefined,
  });
  const pkg = grpc.loadPackageDefinition(loadProtocol()) as any;
  const client = new pkg.tfplugin6.Provider(plugin.address, grpc.credentials.createInsecure()) as grpc.Client & Record<string, any>;
  return {
    call: (name, request) => new Promise((resolve, reject) => client[name](request, (e: Error | null, v: Any) => (e ? reject(e) : resolve(v)))),
    stream: (name, request) =>
      new Promise((resolve, reject) => {
        const events: Any[] = [];
        const call = client[name](request) as grpc.ClientReadableStream<Any>;
        call.on('data', (event: Any) => events.push(event));
        call.on('end', () => resolve(events));
        call.on('error', reject);
      }),
    close: async () => {
      client.close();
      await provider.close();
      await plugin.stop();
    },
  };
}

export type Emulator = Awaited<ReturnType<typeof startEmulator>>;

/**
 * The emulator (seed 5) and the provider served over gRPC against it, configured as Terraform
 * `terraformVersion` configures it (credentials from the environment, `env` added to it).
 */
export async function serveWithEmulator(
  terraformVersion: string,
  env: Record<string, string> = {},
): Promise<{ emulator: Emulator; provider: ProviderOverGrpc }> {
  const emulator = await startEmulator({ port: 0, seed: 5 });
  const provider = await serveOverGrpc({
    TENANTFORM_BASE_URL: emulator.url,
    TENANTFORM_CLIENT_ID: emulator.clientId,
    TENANTFORM_CLIENT_SECRET: emulator.clientSecret,
    ...env,
  });
  const configured = await provider.call('ConfigureProvider', {
    terraform_version: terraformVersion,
    config: msgpack({ base_url: null, client_id: null, client_secret: null, retry_timeout: null, requests_per_second: null }),
  });
  if (configured.diagnostics.length > 0) throw new Error(`ConfigureProvider: ${JSON.stringify(configured.diagnostics)}`);
  return { emulator, provider };
}

/** The configuration of an infrastructure component of `owner`, every attribute present as Terraform sends it. */
export function infraConfig(owner: string, name: string, url: string) {
  return {
    id: null,
    owner_tenant_id: owner,
    name,
    url,
    capabilities: ['backup'],
    location_id: '11111111-2222-4333-8444-555555555555',
    content_url: null,
    content_mobile_url: null,
    backend_type: null,
    version: null,
    platform_owned: null,
    readonly: null,
  };
}
