/**
 * The go-plugin side of the conversation: check that Terraform launched us, listen, print the
 * one handshake line on stdout, and serve the provider plus go-plugin's controller, stdio and
 * health services until Terraform says Shutdown.
 */
import type * as grpc from '@grpc/grpc-js';
import { loadProtocol } from './protocol';
import { STREAM_FAILURE_EVENTS, type DiagnosticsResponse, type ProviderService } from './messages';
import { createServerIdentity, handshakeCertificate } from './tls';

export const MAGIC_COOKIE_KEY = 'TF_PLUGIN_MAGIC_COOKIE';
export const MAGIC_COOKIE_VALUE = 'd602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2';
/** go-plugin's own handshake version, then the plugin protocol version. */
export const CORE_PROTOCOL_VERSION = 1;
export const PLUGIN_PROTOCOL_VERSION = 6;

/** Why this process cannot serve (run by hand, or by a Terraform too old); undefined when it can. */
export function launchProblem(env: NodeJS.ProcessEnv): string | undefined {
  if (env[MAGIC_COOKIE_KEY] !== MAGIC_COOKIE_VALUE) {
    return (
      'This is the tenantform Terraform provider, a plugin that Terraform starts itself.\n' +
      'Running it by hand does nothing. Install it with `tenantform provider install`, then run `terraform init`.\n'
    );
  }
  const offered = (env.PLUGIN_PROTOCOL_VERSIONS ?? String(PLUGIN_PROTOCOL_VERSION)).split(',').map((v) => Number(v.trim()));
  if (!offered.includes(PLUGIN_PROTOCOL_VERSION)) {
    return `Terraform offers plugin protocol versions ${offered.join(', ')}, but this provider speaks version ${PLUGIN_PROTOCOL_VERSION} (Terraform 1.0 or newer).\n`;
  }
  return undefined;
}

export function handshakeLine(address: string, certificateBase64: string): string {
  return `${CORE_PROTOCOL_VERSION}|${PLUGIN_PROTOCOL_VERSION}|tcp|${address}|grpc|${certificateBase64}\n`;
}

export interface ServeOptions {
  readonly env: NodeJS.ProcessEnv;
  /** The provider's RPCs by method name; called on the first request, so that loading waits until after the handshake. */
  readonly handlers: () => ProviderService;
  /** Called once the listener is up, with the handshake line to print. */
  readonly onListening: (line: string) => void;
  /** Called when Terraform asks the plugin to shut down (after the answer is sent). */
  readonly onShutdown: () => void;
  readonly log: (line: string) => void;
}

export interface RunningPlugin {
  readonly server: grpc.Server;
  readonly address: string;
  /** Ends open streams and stops the server. */
  stop(): Promise<void>;
}

export async function servePlugin(opts: ServeOptions): Promise<RunningPlugin> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const grpcJs = require('@grpc/grpc-js') as typeof grpc;
  const definition = loadProtocol();
  const server = new grpcJs.Server({ 'grpc.max_receive_message_length': 256 * 1024 * 1024, 'grpc.max_send_message_length': 256 * 1024 * 1024 });
  const streams = new Set<grpc.ServerWritableStream<unknown, unknown>>();

  const providerDefinition = definition['tfplugin6.Provider'] as grpc.ServiceDefinition;
  let handlers: ProviderService | undefined;
  const providerService: grpc.UntypedServiceImplementation = {};
  for (const name of Object.keys(providerDefinition)) {
    if (providerDefinition[name].responseStream) {
      providerService[name] = (call: grpc.ServerWritableStream<unknown, unknown>) =>
        void serveStream(() => rpcStream((handlers ??= opts.handlers()), name), call, name, opts.log);
      continue;
    }
    providerService[name] = (call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => {
      const answerError = (summary: string, detail: string) =>
        callback(null, { diagnostics: [{ severity: 'ERROR', summary, detail }] } satisfies DiagnosticsResponse);
      const fail = (err: unknown) => {
        // A bug must still reach the user as a diagnostic, not as a broken plugin.
        opts.log(`${name} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        answerError(`The tenantform provider failed in ${name}`, err instanceof Error ? err.message : String(err));
      };
      try {
        handlers ??= opts.handlers();
        const handler = rpcHandler(handlers, name);
        if (!handler) {
          answerError(`${name} is not supported`, `The tenantform provider does not implement ${name}.`);
          return;
        }
        handler(call.request).then((response) => callback(null, response), fail);
      } catch (err) {
        fail(err);
      }
    };
  }
  server.addService(providerDefinition, providerService);

  let shuttingDown = false;
  server.addService(definition['plugin.GRPCController'] as grpc.ServiceDefinition, {
    Shutdown: (_call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => {
      callback(null, {});
      if (!shuttingDown) {
        shuttingDown = true;
        // Let the answer leave before the process does.
        setImmediate(opts.onShutdown);
      }
    },
  });
  server.addService(definition['plugin.GRPCStdio'] as grpc.ServiceDefinition, {
    // The provider writes its logs to stderr directly; the stream only stays open until shutdown.
    StreamStdio: (call: grpc.ServerWritableStream<unknown, unknown>) => {
      streams.add(call);
      call.on('cancelled', () => streams.delete(call));
    },
  });
  server.addService(definition['grpc.health.v1.Health'] as grpc.ServiceDefinition, {
    Check: (_call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => callback(null, { status: 'SERVING' }),
  });

  // Terraform turns AutoMTLS off for any value of TF_DISABLE_PLUGIN_TLS, and then sends no certificate.
  const clientCertPem = opts.env.TF_DISABLE_PLUGIN_TLS ? undefined : opts.env.PLUGIN_CLIENT_CERT;
  let credentials: grpc.ServerCredentials;
  let certificateField = '';
  if (!clientCertPem) {
    credentials = grpcJs.ServerCredentials.createInsecure();
  } else {
    const identity = createServerIdentity();
    // Only the Terraform process that launched us holds the key of PLUGIN_CLIENT_CERT.
    credentials = grpcJs.ServerCredentials.createSsl(
      Buffer.from(clientCertPem),
      [{ cert_chain: Buffer.from(identity.certificatePem), private_key: Buffer.from(identity.privateKeyPem) }],
      true,
    );
    certificateField = handshakeCertificate(identity.certificateDer);
  }

  const port = await bind(server, credentials, portRange(opts.env));
  const address = `127.0.0.1:${port}`;
  opts.onListening(handshakeLine(address, certificateField));
  return {
    server,
    address,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const stream of streams) stream.end();
        streams.clear();
        const force = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, 200);
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      }),
  };
}

/** PLUGIN_MIN_PORT..PLUGIN_MAX_PORT when Terraform sets them; any free port otherwise. */
function portRange(env: NodeJS.ProcessEnv): [number, number] | undefined {
  const min = Number(env.PLUGIN_MIN_PORT);
  const max = Number(env.PLUGIN_MAX_PORT);
  return Number.isInteger(min) && Number.isInteger(max) && min > 0 && max >= min ? [min, max] : undefined;
}

function bindOnce(server: grpc.Server, credentials: grpc.ServerCredentials, port: number): Promise<number> {
  return new Promise((resolve, reject) => server.bindAsync(`127.0.0.1:${port}`, credentials, (err, bound) => (err ? reject(err) : resolve(bound))));
}

async function bind(server: grpc.Server, credentials: grpc.ServerCredentials, range: [number, number] | undefined): Promise<number> {
  if (range) {
    for (let attempt = 0; attempt < 10; attempt++) {
      const port = range[0] + Math.floor(Math.random() * (range[1] - range[0] + 1));
      try {
        return await bindOnce(server, credentials, port);
      } catch {
        // Taken: try another one.
      }
    }
  }
  return bindOnce(server, credentials, 0);
}

/**
 * The provider's handler of the call `name`, taking the request as it arrives: proto-loader has
 * decoded it as that call's request message, which the handler's parameter declares.
 */
function rpcHandler(service: ProviderService, name: string): ((request: unknown) => Promise<unknown>) | undefined {
  if (!Object.hasOwn(service, name)) return undefined;
  return service[name as keyof ProviderService] as (request: unknown) => Promise<unknown>;
}

/** The provider's handler of a call whose answer is a stream of messages (ListResource, InvokeAction). */
function rpcStream(service: ProviderService, name: string): ((request: unknown) => AsyncIterable<unknown>) | undefined {
  if (!Object.hasOwn(service, name)) return undefined;
  return service[name as keyof ProviderService] as (request: unknown) => AsyncIterable<unknown>;
}

/**
 * Writes each message of the handler's stream as it comes, then ends the stream. A handler puts its
 * own failures in its messages; one that throws (or a provider that fails to load) ends the stream
 * with the event its protocol message carries errors in, which Terraform shows as a diagnostic. A
 * stream the caller cancelled is not written further.
 */
async function serveStream(
  handlerOf: () => ((request: unknown) => AsyncIterable<unknown>) | undefined,
  call: grpc.ServerWritableStream<unknown, unknown>,
  name: string,
  log: (line: string) => void,
): Promise<void> {
  try {
    const handler = handlerOf();
    if (!handler) {
      call.destroy(Object.assign(new Error(`The tenantform provider does not implement ${name}.`), { code: UNIMPLEMENTED }));
      return;
    }
    for await (const message of handler(call.request)) {
      if (call.cancelled) return;
      call.write(message);
    }
    call.end();
  } catch (err) {
    log(`${name} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    const failureEvent = STREAM_FAILURE_EVENTS[name];
    if (failureEvent && !call.cancelled) {
      const detail = err instanceof Error ? err.message : String(err);
      call.write(failureEvent({ severity: 'ERROR', summary: `The tenantform provider failed in ${name}`, detail }));
      call.end();
      return;
    }
    call.destroy(
      Object.assign(new Error(`The tenantform provider failed in ${name}: ${err instanceof Error ? err.message : String(err)}`), { code: INTERNAL }),
    );
  }
}

/** gRPC status codes (grpc-js loads only after the handshake line). */
const UNIMPLEMENTED = 12;
const INTERNAL = 13;
