/**
 * The URL prefixes of this server's own media, which a message's media_url may name even over plain
 * http (a LAN install, a MinIO bucket): `PUBLIC_URL/media/` and, with S3, the bucket's public origin.
 * Any other media_url must be https or a `/media/…` path (contract/chats.ts isAllowedMediaUrl).
 */
import type { AppConfig } from '../../core/config';
import { systemClock } from '../../core/clock';
import { S3MediaStorage } from '../../providers/storage/s3';

export function ownMediaBases(config: Pick<AppConfig, 'publicUrl' | 's3'>): string[] {
  const bases = [`${config.publicUrl.replace(/\/+$/, '')}/media/`];
  if (config.s3) bases.push(`${new S3MediaStorage(config.s3, systemClock).fileOrigin()}/`);
  return bases;
}
