import type { PgTls } from './pg-tls';

/** OpenSSL's verdicts on a server certificate whose chain leads to no CA the connection trusts. */
const UNTRUSTED_CHAIN = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
]);

/** PostgreSQL's SQLSTATE for a refused login (pg_hba.conf, a password, a client certificate). */
const INVALID_AUTHORIZATION = '28000';

/**
 * What to change when connecting failed for a TLS reason: the setting that fixes it, in the
 * name the user gave it. Undefined for any other failure (a host that does not answer, a
 * wrong password), which is no TLS matter.
 */
export function tlsRemedy(err: unknown, tls: PgTls, user: string | undefined): string | undefined {
  const { code, message } = err as { code?: string; message?: string };
  const root = tls.rootcert ? `${tls.rootcert.setting} (${tls.rootcert.path})` : undefined;
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    return 'The server\'s certificate does not name the host this connection uses (sslmode "verify-full" checks it). Connect by a name the certificate holds, or set sslmode=verify-ca to verify the certificate\'s CA without the host name.';
  }
  if (code && UNTRUSTED_CHAIN.has(code)) {
    return root
      ? `The server's certificate is not signed by the CA in ${root}: point it at the CA that signed the server's certificate.`
      : `No CA this connection trusts signed the server's certificate (sslmode "${tls.mode}" verifies it): set sslrootcert in conn_str (or PGSSLROOTCERT) to the CA's certificate file.`;
  }
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') {
    return "The server's certificate is outside its validity dates: the server needs a current one.";
  }
  if (message === 'The server does not support SSL connections') {
    return 'The server does not accept TLS. Set sslmode=disable only where the network to the server is trusted: the password and the state would cross it in the clear.';
  }
  if (code === INVALID_AUTHORIZATION && /certificate/i.test(message ?? '')) {
    const who = user ? ` for the user ${user}` : '';
    return tls.cert
      ? `The server did not accept the client certificate in ${tls.cert.setting} (${tls.cert.path}): it needs one its CA signed, whose common name is the user${who}.`
      : `The server asks for a client certificate: set sslcert and sslkey in conn_str (or PGSSLCERT and PGSSLKEY) to the certificate issued${who} and its key.`;
  }
  return undefined;
}
