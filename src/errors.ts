import { type AttributePath, type Diagnostic } from './diagnostics';

/**
 * tenantform's own failures. Each factory returns an error whose message says what
 * happened and what to run next; `retryable` says whether running again can help.
 */
export class TenantformError extends Error {
  constructor(
    readonly code: string,
    readonly summary: string,
    readonly detail: string,
    readonly retryable: boolean,
    readonly address?: string,
    readonly path?: AttributePath,
  ) {
    super(`${summary}: ${detail}`);
    this.name = 'TenantformError';
  }

  toDiagnostic(): Diagnostic {
    return {
      severity: 'error',
      summary: this.summary,
      detail: this.detail,
      address: this.address,
      path: this.path,
      code: this.code,
      retryable: this.retryable,
    };
  }
}

/** Failures of the reconciler (configuration, state, locking, plans) and of its commands. */

/** Problems with a folder of Terraform files (`.tf`, `.tf.json`) read as one configuration, each naming its file. */

/** Module calls (`module` blocks) and the modules they call. */

/** Problems with the Terraform language in a configuration: variables, locals, outputs, expressions. */

/** Faults met while applying: lost answers, interrupted creates. */

/**
 * A failed connection as src/network describes it: a certificate not trusted (`host`, and the
 * proxy the connection went through), a proxy that could not be used, a setting that cannot.
 */
export type NetworkFailureFacts =
  | { readonly kind: 'certificate'; readonly host: string; readonly what: string; readonly proxy?: string }
  | { readonly kind: 'proxy'; readonly proxy: string; readonly what: string; readonly retryable: boolean }
  | { readonly kind: 'setting'; readonly variable: string; readonly what: string };

const TRUST_VARIABLES =
  "To trust your organisation's certificate authority (a proxy that inspects TLS signs with one), name its PEM file in SSL_CERT_FILE, " +
  "or a directory of PEM files in SSL_CERT_DIR (several separated by ':'), or the file in NODE_EXTRA_CA_CERTS; then run again.";

/** Connections that fail on the way to a server: certificates, proxies, their variables. Nothing was sent. */
export const networkErrors = {
  certificateRejected(host: string, what: string, proxy: string | undefined) {
    const through = proxy ? ` The connection went through the proxy ${proxy}, which may present a certificate of its own.` : '';
    return new TenantformError(
      'certificate_rejected',
      `The certificate of ${host} is not trusted`,
      `It ${what}; nothing was sent to ${host}.${through} ${TRUST_VARIABLES}`,
      false,
    );
  },
  proxyFailed(proxy: string, what: string, retryable: boolean) {
    return new TenantformError(
      'proxy_failed',
      `Cannot connect through the proxy ${proxy}`,
      `It ${what}; nothing was sent through it. The proxy comes from HTTPS_PROXY (HTTP_PROXY for http:// addresses); ` +
        `hosts listed in NO_PROXY are reached directly.${retryable ? ' Running again may succeed.' : ''}`,
      retryable,
    );
  },
  unusableSetting(variable: string, what: string) {
    return new TenantformError('network_setting', `${variable} cannot be used`, `${capitalized(what)}. Correct or unset ${variable}, then run again.`, false);
  },
  /** The error for a failure as src/network reports it. */
  of(failure: NetworkFailureFacts) {
    switch (failure.kind) {
      case 'certificate':
        return networkErrors.certificateRejected(failure.host, failure.what, failure.proxy);
      case 'proxy':
        return networkErrors.proxyFailed(failure.proxy, failure.what, failure.retryable);
      default:
        return networkErrors.unusableSetting(failure.variable, failure.what);
    }
  },
};

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Command lines that cannot work, refused before anything is read or sent. */

/** The installed package itself: its build and the provider it installs. */
export const packageErrors = {
  providerNotBuilt(mainPath: string) {
    return new TenantformError(
      'provider_not_built',
      'The compiled provider is missing',
      `${mainPath} does not exist. In a checkout of tenantform, run \`npm run build\` first; an installed package ships it built.`,
      false,
    );
  },
  cdkLibraryMissing(libraries: readonly string[]) {
    return new TenantformError(
      'cdk_library_missing',
      'No CDK library to build the constructs on',
      `tenantform's constructs extend the app's own ${libraries.join(' or ')}, and neither is installed. ` +
        'Install CDK Terrain (`npm install cdktn constructs`) or cdktf (`npm install cdktf constructs`) in the project.',
      false,
    );
  },
};

/** Failures of the state backends (where the state lives, and its lock). */

/** Failures of `tenantform state` subcommands. */
