/** MediaStorage in memory, for tests. */
import type { UploadSigner } from './presign';
import { InvalidMediaKeyError, isValidMediaKey, type MediaObject, type MediaStorage, type PresignUploadInput, type PresignedUploadTarget, type StoredMedia } from './types';

export class MemoryMediaStorage implements MediaStorage {
  readonly objects = new Map<string, MediaObject>();

  constructor(
    private readonly baseUrl = '/media',
    private readonly signer?: UploadSigner,
  ) {}

  async presignUpload(input: PresignUploadInput): Promise<PresignedUploadTarget> {
    if (!isValidMediaKey(input.key)) throw new InvalidMediaKeyError(input.key);
    if (!this.signer) throw new Error('presigned uploads are not configured');
    return this.signer.sign(input);
  }

  async put(key: string, bytes: Buffer, contentType: string): Promise<StoredMedia> {
    if (!isValidMediaKey(key)) throw new InvalidMediaKeyError(key);
    this.objects.set(key, { bytes: Buffer.from(bytes), contentType });
    return { key, url: `${this.baseUrl}/${key}` };
  }

  async get(key: string): Promise<MediaObject | null> {
    return this.objects.get(key) ?? null;
  }

  async delete(key: string): Promise<void> {
    this.objects.delete(key);
  }
}
