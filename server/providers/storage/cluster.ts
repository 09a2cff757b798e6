/**
 * Media in a cluster (issue #21): with REDIS_URL several processes serve one console, and each must find
 * what any other stored. A bucket (S3_BUCKET) is shared by nature; the local disk under DATA_DIR/media only
 * when it is one folder every process mounts, which the operator says with MEDIA_SHARED=true. Otherwise an
 * attachment or avatar uploaded through one process is 404 on the others, so the server says so at start
 * (the banner and a warn log line) and GET /api/ready/ fails with this reason.
 */
import type { AppConfig } from '../../core/config';

export function mediaClusterProblem(config: Pick<AppConfig, 'redisUrl' | 's3' | 'mediaShared' | 'dataDir'>): string | null {
  if (!config.redisUrl || config.s3 || config.mediaShared) return null;
  return (
    `media is on this process's local folder (${config.dataDir}/media) while REDIS_URL says several processes run: ` +
    'what one stores is missing on the others. Use a bucket (S3_BUCKET) or a folder every process shares, marked MEDIA_SHARED=true'
  );
}
