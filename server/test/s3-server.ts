import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A real S3-compatible server in the test process: s3rver (npm, MIT) on a free port of 127.0.0.1,
 * its objects in a temporary folder, one bucket. Zenko CloudServer was the first choice; it could
 * not be installed here (docs/decisions/0014-media-on-s3.md).
 */
type S3rverInstance = { run(): Promise<AddressInfo>; close(): Promise<void> };
type S3rverClass = new (o: Record<string, unknown>) => S3rverInstance;

export type TestS3 = { env: Record<string, string>; bucket: string; directory: string; close: () => Promise<void> };

export async function startS3Server(bucket = 'uk-media'): Promise<TestS3> {
  const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass;
  const directory = mkdtempSync(join(tmpdir(), 'uk-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const address = await server.run();
  return {
    bucket,
    directory,
    env: {
      MEDIA_STORE: 's3',
      S3_ENDPOINT: `http://127.0.0.1:${address.port}`,
      S3_BUCKET: bucket,
      S3_REGION: 'us-east-1',
      // s3rver's fixed account
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
    close: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
