/**
 * AutoMTLS for the plugin handshake: a fresh ECDSA P-256 key and a self-signed certificate
 * per launch. Terraform pins the certificate from the handshake line and verifies it with
 * server name `localhost`, so it must be a CA for itself, name localhost and allow both
 * server and client authentication. A small DER writer builds it; node:crypto signs it.
 */
import { generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

// ---- DER (the subset a certificate needs) ----

function lengthBytes(length: number): Buffer {
  if (length < 0x80) return Buffer.from([length]);
  const bytes: number[] = [];
  for (let n = length; n > 0; n = Math.floor(n / 256)) bytes.unshift(n & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

export function tlv(tag: number, content: Buffer): Buffer {
  return Buffer.concat([Buffer.from([tag]), lengthBytes(content.length), content]);
}

export const der = {
  sequence: (...items: Buffer[]) => tlv(0x30, Buffer.concat(items)),
  set: (...items: Buffer[]) => tlv(0x31, Buffer.concat(items)),
  boolean: (value: boolean) => tlv(0x01, Buffer.from([value ? 0xff : 0x00])),
  /** A non-negative integer from its big-endian bytes (a leading zero keeps it positive). */
  unsignedInteger(bytes: Buffer): Buffer {
    let start = 0;
    while (start < bytes.length - 1 && bytes[start] === 0) start++;
    const trimmed = bytes.subarray(start);
    return tlv(0x02, trimmed[0] & 0x80 ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed);
  },
  smallInteger: (n: number) => der.unsignedInteger(Buffer.from([n])),
  bitString: (bytes: Buffer, unusedBits = 0) => tlv(0x03, Buffer.concat([Buffer.from([unusedBits]), bytes])),
  octetString: (bytes: Buffer) => tlv(0x04, bytes),
  utf8String: (text: string) => tlv(0x0c, Buffer.from(text, 'utf8')),
  oid(dotted: string): Buffer {
    const parts = dotted.split('.').map(Number);
    const body: number[] = [40 * parts[0] + parts[1]];
    for (const part of parts.slice(2)) {
      const base128: number[] = [];
      for (let n = part; ; n = Math.floor(n / 128)) {
        base128.unshift((n & 0x7f) | (base128.length > 0 ? 0x80 : 0));
        if (n < 128) break;
      }
      body.push(...base128);
    }
    return tlv(0x06, Buffer.from(body));
  },
  /** UTCTime through 2049, GeneralizedTime after, as RFC 5280 requires. */
  time(date: Date): Buffer {
    const iso = date.toISOString(); // 2024-05-01T12:34:56.789Z
    const digits = iso.slice(0, 19).replace(/[-:T]/g, '');
    const year = date.getUTCFullYear();
    return year < 2050 ? tlv(0x17, Buffer.from(`${digits.slice(2)}Z`)) : tlv(0x18, Buffer.from(`${digits}Z`));
  },
  explicit: (tagNumber: number, content: Buffer) => tlv(0xa0 | tagNumber, content),
};

const OID = {
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  organization: '2.5.4.10',
  commonName: '2.5.4.3',
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
  extKeyUsage: '2.5.29.37',
  subjectAltName: '2.5.29.17',
  serverAuth: '1.3.6.1.5.5.7.3.1',
  clientAuth: '1.3.6.1.5.5.7.3.2',
};

function extension(oid: string, critical: boolean, value: Buffer): Buffer {
  return der.sequence(der.oid(oid), ...(critical ? [der.boolean(true)] : []), der.octetString(value));
}

// Key usage bits, numbered from the most significant bit of the first byte.
const DIGITAL_SIGNATURE = 0x80;
const KEY_ENCIPHERMENT = 0x20;
const KEY_AGREEMENT = 0x08;
const KEY_CERT_SIGN = 0x04;

export interface ServerIdentity {
  readonly certificateDer: Buffer;
  readonly certificatePem: string;
  readonly privateKeyPem: string;
  readonly privateKey: KeyObject;
}

export interface CertificateOptions {
  readonly commonName?: string;
  readonly now?: Date;
  readonly validForMs?: number;
}

/** A fresh key and a self-signed certificate for `localhost`. */
export function createServerIdentity(opts: CertificateOptions = {}): ServerIdentity {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const now = opts.now ?? new Date();
  // Clocks of the two processes agree, but a little slack costs nothing.
  const notBefore = new Date(now.getTime() - 30_000);
  const notAfter = new Date(now.getTime() + (opts.validForMs ?? 24 * 3600_000));
  const name = der.sequence(
    der.set(der.sequence(der.oid(OID.organization), der.utf8String('tenantform'))),
    der.set(der.sequence(der.oid(OID.commonName), der.utf8String(opts.commonName ?? 'localhost'))),
  );
  const signatureAlgorithm = der.sequence(der.oid(OID.ecdsaWithSha256));
  const serial = randomBytes(16);
  serial[0] &= 0x7f;
  const extensions = der.sequence(
    extension(OID.basicConstraints, true, der.sequence(der.boolean(true))),
    extension(
      OID.keyUsage,
      true,
      // Bits 6 and 7 of the byte are unused.
      der.bitString(Buffer.from([DIGITAL_SIGNATURE | KEY_ENCIPHERMENT | KEY_AGREEMENT | KEY_CERT_SIGN]), 2),
    ),
    extension(OID.extKeyUsage, false, der.sequence(der.oid(OID.serverAuth), der.oid(OID.clientAuth))),
    // GeneralName dNSName is [2] IMPLICIT IA5String.
    extension(OID.subjectAltName, false, der.sequence(tlv(0x82, Buffer.from('localhost', 'ascii')))),
  );
  const tbs = der.sequence(
    der.explicit(0, der.smallInteger(2)), // v3
    der.unsignedInteger(serial),
    signatureAlgorithm,
    name,
    der.sequence(der.time(notBefore), der.time(notAfter)),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
    der.explicit(3, extensions),
  );
  const signature = sign('sha256', tbs, privateKey); // DER-encoded ECDSA signature
  const certificateDer = der.sequence(tbs, signatureAlgorithm, der.bitString(signature));
  return {
    certificateDer,
    certificatePem: toPem('CERTIFICATE', certificateDer),
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    privateKey,
  };
}

export function toPem(label: string, bytes: Buffer): string {
  const lines = bytes.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

/** The certificate as the handshake line carries it: base64 without `=` padding. */
export function handshakeCertificate(certificateDer: Buffer): string {
  return certificateDer.toString('base64').replace(/=+$/, '');
}
