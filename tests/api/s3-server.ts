// A local S3-compatible server for tests of the S3 file store: s3rver on a random port, keeping its
// objects in a temp dir, with one bucket. Its fixed credentials are S3RVER / S3RVER.
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';

interface S3rverServer {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverClass = new (options: { port: number; address: string; directory: string; silent: boolean; configureBuckets: { name: string }[] }) => S3rverServer;

// s3rver ships no types: its constructor is described above, for the options used here
const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass;

export interface TestS3 {
  /** FILES_S3_* variables pointing the panel at this server */
  env: Record<string, string>;
  /** every object key in the bucket under `prefix` */
  keys(prefix?: string): Promise<string[]>;
  close(): Promise<void>;
}

export async function startTestS3(bucket = 'panel-files'): Promise<TestS3> {
  const directory = mkdtempSync(join(tmpdir(), 'orepanel-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', directory, silent: true, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  return {
    env: {
      FILES_S3_BUCKET: bucket,
      FILES_S3_ENDPOINT: endpoint,
      FILES_S3_REGION: 'us-east-1',
      FILES_S3_ACCESS_KEY_ID: 'S3RVER',
      FILES_S3_SECRET_ACCESS_KEY: 'S3RVER',
      FILES_S3_FORCE_PATH_STYLE: 'true',
    },
    async keys(prefix = '') {
      const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
      return (listed.Contents ?? []).map((object) => object.Key ?? '');
    },
    async close() {
      client.destroy();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
