/**
 * Signing the release's checksums with a key of gpg's keyring: a detached signature gpg itself
 * verifies with the exported public key, and a key's passphrase taken from
 * TENANTFORM_SIGNING_PASSPHRASE, never shown, even when it is wrong.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gpgSigningKey, PASSPHRASE_VARIABLE } from '../../scripts/release/gpg';
import { throwawayKeyring } from './helpers';

const PASSPHRASE = 'correct horse battery staple';

let keyring: ReturnType<typeof throwawayKeyring>;
let dir: string;
beforeAll(() => {
  keyring = throwawayKeyring(PASSPHRASE);
  dir = mkdtempSync(join(tmpdir(), 'tenantform-gpg-'));
});
afterAll(() => {
  keyring?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('signs with the passphrase given in the environment; gpg verifies the signature with the exported key', async () => {
  const key = await gpgSigningKey(keyring.fingerprint, { ...keyring.env, [PASSPHRASE_VARIABLE]: PASSPHRASE });
  expect(key.keyId).toBe(keyring.fingerprint.slice(-16));
  expect(key.asciiArmor).toMatch(/^-----BEGIN PGP PUBLIC KEY BLOCK-----/);
  const data = Buffer.from('0123  terraform-provider-tenantform_1.0.0_linux_amd64.zip\n');
  writeFileSync(join(dir, 'SHA256SUMS'), data);
  writeFileSync(join(dir, 'SHA256SUMS.sig'), await key.sign(data));
  // A keyring holding the public key only, as Terraform holds it.
  const verifier = { ...process.env, GNUPGHOME: mkdtempSync(join(tmpdir(), 'tf-gpg-')) };
  try {
    execFileSync('gpg', ['--batch', '--import'], { env: verifier, input: key.asciiArmor, stdio: ['pipe', 'ignore', 'ignore'] });
    const verified = spawnSync('gpg', ['--batch', '--verify', join(dir, 'SHA256SUMS.sig'), join(dir, 'SHA256SUMS')], { env: verifier, encoding: 'utf8' });
    expect(verified.stderr).toContain('Good signature');
    expect(verified.status).toBe(0);
    writeFileSync(join(dir, 'SHA256SUMS'), Buffer.concat([data, Buffer.from('changed\n')]));
    expect(spawnSync('gpg', ['--batch', '--verify', join(dir, 'SHA256SUMS.sig'), join(dir, 'SHA256SUMS')], { env: verifier }).status).not.toBe(0);
  } finally {
    execFileSync('gpgconf', ['--kill', 'gpg-agent'], { env: verifier, stdio: 'ignore' });
    rmSync(verifier.GNUPGHOME, { recursive: true, force: true });
  }
});

test('a wrong passphrase fails the signing, and the message does not show it', async () => {
  const wrong = 'not the passphrase of this key';
  const key = await gpgSigningKey(keyring.fingerprint, { ...keyring.env, [PASSPHRASE_VARIABLE]: wrong });
  const failure = await key.sign(Buffer.from('data')).then(
    () => undefined,
    (err: Error) => err,
  );
  expect(failure?.message).toContain(`gpg could not sign with ${keyring.fingerprint}`);
  expect(failure?.message).not.toContain(wrong);
});

test('a key the keyring does not hold is named in the error', async () => {
  await expect(gpgSigningKey('nobody@tenantform.invalid', keyring.env)).rejects.toThrow(/gpg has no secret key "nobody@tenantform.invalid"/);
});
