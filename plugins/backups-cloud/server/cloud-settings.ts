// The bucket the off-site copies go to, read from the plugin's settings (plugin.json; every one of
// them root-only: they decide where a copy of every account's data goes, and whether and how long
// it is kept there). Saved from the screen's form by admin.root, checked whole before any is written.
import { isObjectStorageError, type ObjectStorageOptions, type ServerPluginContext } from '@orepanel/sdk/server';
import { CLOUD_LIMITS, type CloudConnection, type CloudSettingsInput } from '../shared/wire';

export const CLOUD_SETTINGS = {
  endpoint: 'cloud_endpoint',
  region: 'cloud_region',
  bucket: 'cloud_bucket',
  accessKeyId: 'cloud_access_key_id',
  secretAccessKey: 'cloud_secret_access_key',
  prefix: 'cloud_prefix',
  forcePathStyle: 'cloud_force_path_style',
  autoUpload: 'cloud_auto_upload',
  keep: 'cloud_keep',
} as const;

export interface CloudConfig {
  /** null while no bucket is named or a key is missing: nothing goes off-site */
  options: ObjectStorageOptions | null;
  connection: Omit<CloudConnection, 'access_key_id'> & { access_key_id: string };
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

function keepOf(value: unknown): number {
  const n = typeof value === 'number' && Number.isFinite(value) ? Math.floor(value) : CLOUD_LIMITS.keep.default;
  return Math.min(CLOUD_LIMITS.keep.max, Math.max(CLOUD_LIMITS.keep.min, n));
}

export async function readCloudConfig(ctx: ServerPluginContext): Promise<CloudConfig> {
  const v = await ctx.settings.getMany(Object.values(CLOUD_SETTINGS));
  const connection = {
    endpoint: text(v[CLOUD_SETTINGS.endpoint]),
    region: text(v[CLOUD_SETTINGS.region]) || 'us-east-1',
    bucket: text(v[CLOUD_SETTINGS.bucket]),
    prefix: text(v[CLOUD_SETTINGS.prefix]),
    force_path_style: v[CLOUD_SETTINGS.forcePathStyle] === true,
    access_key_id: text(v[CLOUD_SETTINGS.accessKeyId]),
    secret_set: text(v[CLOUD_SETTINGS.secretAccessKey]) !== '',
    auto_upload: v[CLOUD_SETTINGS.autoUpload] !== false,
    keep: keepOf(v[CLOUD_SETTINGS.keep]),
  };
  const configured = connection.bucket !== '' && connection.access_key_id !== '' && connection.secret_set;
  return {
    connection,
    options: configured
      ? {
          endpoint: connection.endpoint || null,
          region: connection.region,
          bucket: connection.bucket,
          accessKeyId: connection.access_key_id,
          secretAccessKey: text(v[CLOUD_SETTINGS.secretAccessKey]),
          prefix: connection.prefix,
          forcePathStyle: connection.force_path_style,
        }
      : null,
  };
}

/** the API's field for each option the object storage may refuse */
const FIELD_OF: Record<string, keyof CloudSettingsInput> = {
  endpoint: 'endpoint',
  region: 'region',
  bucket: 'bucket',
  accessKeyId: 'access_key_id',
  secretAccessKey: 'secret_access_key',
  prefix: 'prefix',
};

/**
 * The options a form describes (its secret, or the stored one when the form leaves it out), refused
 * with a 400 naming the field when they cannot work. Opening a bucket makes no request: it is the
 * object storage's own check of the options, so the screen and the service never disagree.
 */
export async function optionsFromForm(ctx: ServerPluginContext, input: CloudSettingsInput): Promise<ObjectStorageOptions> {
  const storedSecret = text(await ctx.settings.get(CLOUD_SETTINGS.secretAccessKey));
  const options: ObjectStorageOptions = {
    endpoint: input.endpoint.trim() || null,
    region: input.region.trim(),
    bucket: input.bucket.trim(),
    accessKeyId: input.access_key_id.trim(),
    secretAccessKey: input.secret_access_key ?? storedSecret,
    prefix: input.prefix.trim(),
    forcePathStyle: input.force_path_style,
  };
  if (options.secretAccessKey === '') throw ctx.httpError(400, 'VALIDATION_ERROR', 'Give the secret access key.', 'secret_access_key');
  try {
    ctx.objectStorage.bucket(options).close();
  } catch (error) {
    if (isObjectStorageError(error)) throw ctx.httpError(400, 'VALIDATION_ERROR', error.message, FIELD_OF[error.detail ?? ''] ?? 'endpoint');
    throw error;
  }
  return options;
}

/**
 * Saves the form. An empty bucket switches the off-site copies off (the other fields are kept as
 * given, the secret is cleared so no credential lingers); otherwise every option is checked first.
 */
export async function saveCloudSettings(ctx: ServerPluginContext, input: CloudSettingsInput): Promise<{ configured: boolean; secretChanged: boolean }> {
  if (!Number.isInteger(input.keep) || input.keep < CLOUD_LIMITS.keep.min || input.keep > CLOUD_LIMITS.keep.max) {
    throw ctx.httpError(400, 'VALIDATION_ERROR', `Keep ${CLOUD_LIMITS.keep.min} to ${CLOUD_LIMITS.keep.max} archives off-site.`, 'keep');
  }
  const off = input.bucket.trim() === '';
  const options = off ? null : await optionsFromForm(ctx, input);
  const values: [string, string | boolean | number][] = [
    [CLOUD_SETTINGS.endpoint, options ? (options.endpoint ?? '') : input.endpoint.trim()],
    [CLOUD_SETTINGS.region, options ? options.region : input.region.trim()],
    [CLOUD_SETTINGS.bucket, options ? options.bucket : ''],
    [CLOUD_SETTINGS.accessKeyId, options ? options.accessKeyId : ''],
    [CLOUD_SETTINGS.prefix, options ? (options.prefix ?? '') : input.prefix.trim()],
    [CLOUD_SETTINGS.forcePathStyle, input.force_path_style],
    [CLOUD_SETTINGS.autoUpload, input.auto_upload],
    [CLOUD_SETTINGS.keep, input.keep],
  ];
  const secretChanged = off ? text(await ctx.settings.get(CLOUD_SETTINGS.secretAccessKey)) !== '' : input.secret_access_key !== undefined;
  if (secretChanged) values.push([CLOUD_SETTINGS.secretAccessKey, options ? options.secretAccessKey : '']);
  for (const [key, value] of values) await ctx.settings.set(key, value);
  return { configured: !off, secretChanged };
}
