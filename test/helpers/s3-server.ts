/**
 * A real S3-compatible server for the tests (s3rver, from npm) on a free loopback port, with
 * one bucket and an access key of its own, and the s3 backend block and environment that let
 * terraform keep a state there.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface S3rverInstance {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;

// s3rver ships no types; its account registry is where it keeps access keys.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rver = require('s3rver') as S3rverClass;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const accounts = require('s3rver/lib/models/account') as { DUMMY_ACCOUNT: { createKeyPair(id: string, secret: string): void } };

export interface S3Server {
  readonly url: string;
  readonly bucket: string;
  /** AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and a region, as a user's CI sets them. */
  readonly credentials: NodeJS.ProcessEnv;
  /** The `s3` backend block that keeps the state under `key` in this server's bucket. */
  backend(key: string): Record<string, unknown>;
  close(): Promise<void>;
}

export async function startS3Server(bucket = 'tenantform-states'): Promise<S3Server> {
  const directory = mkdtempSync(join(tmpdir(), 'tenantform-s3-'));
  const accessKeyId = `tenantform-${randomBytes(4).toString('hex')}`;
  const secretAccessKey = `s3-secret-${randomBytes(12).toString('hex')}`;
  accounts.DUMMY_ACCOUNT.createKeyPair(accessKeyId, secretAccessKey);
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    bucket,
    credentials: { AWS_ACCESS_KEY_ID: accessKeyId, AWS_SECRET_ACCESS_KEY: secretAccessKey, AWS_REGION: 'us-east-1' },
    backend: (key) => ({
      s3: {
        bucket,
        key,
        region: 'us-east-1',
        endpoints: { s3: url },
        use_path_style: true,
        use_lockfile: true,
        skip_credentials_validation: true,
        skip_requesting_account_id: true,
        skip_metadata_api_check: true,
        skip_region_validation: true,
      },
    }),
    close: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
