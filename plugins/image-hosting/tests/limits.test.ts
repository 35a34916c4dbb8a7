// The image host's settings read as limits: unknown type names are ignored (jpg is jpeg), sizes are
// whole megabytes within their bounds, and a value that is no number falls back to the default.
import { describe, expect, it } from 'vitest';
import { hostingLimits, MB } from '../server/limits';

describe('hostingLimits', () => {
  it('keeps the known image types once, whatever the spelling', () => {
    expect(hostingLimits({ image_hosting_types: ' PNG, .jpg;jpeg  svg,pdf,webp' }).types).toEqual(['image/png', 'image/jpeg', 'image/webp']);
    expect(hostingLimits({ image_hosting_types: 'svg,html' }).types).toEqual([]);
  });

  it('bounds the sizes and the price, and falls back on nonsense', () => {
    const limits = hostingLimits({ image_hosting_max_mb: 500, image_hosting_quota_mb: 0, image_hosting_coins_per_upload: -3, rate_limit_image_hosting_uploads_per_minute: 'x' });
    expect(limits.maxBytes).toBe(25 * MB);
    expect(limits.quotaBytes).toBe(1 * MB);
    expect(limits.coinsPerUpload).toBe(0);
    expect(limits.uploadsPerMinute).toBe(20);
    expect(hostingLimits({}).maxBytes).toBe(10 * MB);
  });
});
