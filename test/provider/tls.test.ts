import { X509Certificate, createPublicKey } from 'node:crypto';
import * as tls from 'node:tls';
import type { AddressInfo } from 'node:net';
import { createServerIdentity, der, handshakeCertificate } from '../../src/provider/tls';

describe('DER writer', () => {
  test('lengths: short form below 128, long form above', () => {
    expect(der.octetString(Buffer.alloc(3)).subarray(0, 2)).toEqual(Buffer.from([0x04, 0x03]));
    expect(der.octetString(Buffer.alloc(200)).subarray(0, 3)).toEqual(Buffer.from([0x04, 0x81, 200]));
    expect(der.octetString(Buffer.alloc(300)).subarray(0, 4)).toEqual(Buffer.from([0x04, 0x82, 0x01, 0x2c]));
  });

  test('object identifiers in base 128', () => {
    // 1.2.840.10045.4.3.2 (ecdsa-with-SHA256)
    expect(der.oid('1.2.840.10045.4.3.2').toString('hex')).toBe('06082a8648ce3d040302');
    expect(der.oid('2.5.29.17').toString('hex')).toBe('0603551d11');
  });

  test('integers stay positive and minimal', () => {
    expect(der.unsignedInteger(Buffer.from([0x00, 0x00, 0x05])).toString('hex')).toBe('020105');
    expect(der.unsignedInteger(Buffer.from([0x80])).toString('hex')).toBe('02020080');
    expect(der.smallInteger(2).toString('hex')).toBe('020102');
  });

  test('times: UTCTime through 2049, GeneralizedTime from 2050', () => {
    expect(der.time(new Date('2030-01-02T03:04:05Z')).toString('latin1').slice(2)).toBe('300102030405Z');
    expect(der.time(new Date('2030-01-02T03:04:05Z'))[0]).toBe(0x17);
    expect(der.time(new Date('2051-01-02T03:04:05Z')).toString('latin1').slice(2)).toBe('20510102030405Z');
    expect(der.time(new Date('2051-01-02T03:04:05Z'))[0]).toBe(0x18);
  });
});

describe('the AutoMTLS server certificate', () => {
  const identity = createServerIdentity();
  const cert = new X509Certificate(identity.certificateDer);

  test('is self-signed with the ECDSA P-256 key, for localhost', () => {
    expect(cert.verify(cert.publicKey)).toBe(true);
    expect(cert.publicKey.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
    expect(cert.publicKey.export({ type: 'spki', format: 'der' })).toEqual(createPublicKey(identity.privateKey).export({ type: 'spki', format: 'der' }));
    expect(cert.subjectAltName).toBe('DNS:localhost');
    expect(cert.checkHost('localhost')).toBe('localhost');
    expect(cert.issuer).toBe(cert.subject);
  });

  test('is a CA that may sign certificates, for server and client authentication, valid now', () => {
    expect(cert.ca).toBe(true);
    expect(cert.keyUsage).toEqual(expect.arrayContaining(['1.3.6.1.5.5.7.3.1', '1.3.6.1.5.5.7.3.2']));
    // keyUsage (2.5.29.15), critical, a BIT STRING whose byte has keyCertSign (0x04) set.
    const hex = identity.certificateDer.toString('hex');
    const keyUsage = /0603551d0f0101ff0404030202([0-9a-f]{2})/.exec(hex);
    expect(keyUsage).not.toBeNull();
    expect(parseInt(keyUsage![1], 16) & 0x04).toBe(0x04);
    expect(hex).toContain('0603551d130101ff040530030101ff'); // basicConstraints, critical, CA true
    const now = Date.now();
    expect(new Date(cert.validFrom).getTime()).toBeLessThanOrEqual(now);
    expect(new Date(cert.validTo).getTime()).toBeGreaterThan(now);
  });

  test('the handshake form is base64 of the DER without padding', () => {
    const field = handshakeCertificate(identity.certificateDer);
    expect(field).not.toMatch(/=/);
    expect(Buffer.from(field, 'base64')).toEqual(identity.certificateDer);
  });

  test('a TLS client that trusts only this certificate connects to localhost, with a client certificate required', async () => {
    const client = createServerIdentity();
    const server = tls.createServer({
      cert: identity.certificatePem,
      key: identity.privateKeyPem,
      ca: client.certificatePem,
      requestCert: true,
      rejectUnauthorized: true,
    });
    server.on('secureConnection', (socket) => socket.end('ok'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = tls.connect({
          host: '127.0.0.1',
          port: (server.address() as AddressInfo).port,
          servername: 'localhost',
          ca: identity.certificatePem,
          cert: client.certificatePem,
          key: client.privateKeyPem,
        });
        let text = '';
        socket.on('data', (d: Buffer) => (text += d.toString()));
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
      });
      expect(answer).toBe('ok');
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
