/**
 * POST /api/profiles/: the caller's avatar. The data URL is decoded, its bytes must really be
 * the declared image type (magic numbers), and it is stored through the MediaStorage under a
 * fresh random key, so the URL changes with every upload and may be cached forever.
 */
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { ProfileAvatar } from '../../../contract/team';
import type { Database } from '../../core/db/client';
import { users } from '../../core/db/schema';
import { fieldError } from '../../core/errors';
import { extensionFor, type MediaStorage } from '../../providers/storage/types';
import { TEAM_MESSAGES } from './messages';

export const MAX_AVATAR_BYTES = 1024 * 1024;

const DATA_URL = /^data:(image\/(?:png|jpeg|gif|webp));base64,([A-Za-z0-9+/]+={0,2})$/;

function looksLike(contentType: string, bytes: Buffer): boolean {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  switch (contentType) {
    case 'image/png':
      return starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
    case 'image/jpeg':
      return starts(0xff, 0xd8, 0xff);
    case 'image/gif':
      return bytes.subarray(0, 6).toString('latin1') === 'GIF87a' || bytes.subarray(0, 6).toString('latin1') === 'GIF89a';
    case 'image/webp':
      return bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP';
    default:
      return false;
  }
}

/** The image in a data URL, or a field error on `avatar`. */
export function decodeImageDataUrl(dataUrl: string): { bytes: Buffer; contentType: string } {
  const match = DATA_URL.exec(dataUrl);
  if (!match || match[2].length % 4 === 1) throw fieldError('avatar', TEAM_MESSAGES.badImage);
  const contentType = match[1];
  const bytes = Buffer.from(match[2], 'base64');
  if (bytes.length > MAX_AVATAR_BYTES) throw fieldError('avatar', TEAM_MESSAGES.imageTooLarge);
  if (!looksLike(contentType, bytes)) throw fieldError('avatar', TEAM_MESSAGES.badImage);
  return { bytes, contentType };
}

export class ProfileService {
  constructor(
    private readonly db: Database,
    private readonly storage: MediaStorage,
  ) {}

  async setAvatar(userId: number, dataUrl: string): Promise<ProfileAvatar> {
    const { bytes, contentType } = decodeImageDataUrl(dataUrl);
    const key = `avatars/${userId}/${randomBytes(16).toString('hex')}.${extensionFor(contentType)}`;
    const stored = await this.storage.put(key, bytes, contentType);

    const [previous] = await this.db.select({ key: users.profileAvatar }).from(users).where(eq(users.id, userId));
    await this.db.update(users).set({ profileAvatar: stored.key, profileAvatarUrl: stored.url }).where(eq(users.id, userId));
    // The old file is no longer referenced; failing to delete it only leaves garbage behind.
    if (previous?.key && previous.key !== stored.key) await this.storage.delete(previous.key).catch(() => undefined);
    return { profile_avatar: stored.key, profile_avatar_url: stored.url };
  }
}
