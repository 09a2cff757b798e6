/** MediaStorage in memory, for tests. */
import type { UploadSigner } from './presign';
import type { Clock } from '../clock';
import { InvalidMediaKeyError, isValidMediaKey, type ListedMedia, type MediaObject, type MediaStorage, type PresignUploadInput, type PresignedUploadTarget, type StoredMedia } from './types';

export class MemoryMediaStorage implements MediaStorage {
  readonly objects = new Map<string, MediaObject>();
  /** When each object was written (tests may move it back). */
  readonly modified = new Map<string, Date>();

  constructor(
    private readonly baseUrl = '/media',
    private readonly signer?: UploadSigner,
    private readonly clock?: Clock,
  ) {}

  async presignUpload(input: PresignUploadInput): Promise<PresignedUploadTarget> {
    if (!isValidMediaKey(input.key)) throw new InvalidMediaKeyError(input.key);
    if (!this.signer) throw new Error('presigned uploads are not configured');
    return this.signer.sign(input);
  }

  async put(key: string, bytes: Buffer, contentType: string): Promise<StoredMedia> {
    if (!isValidMediaKey(key)) throw new InvalidMediaKeyError(key);
    this.objects.set(key, { bytes: Buffer.from(bytes), contentType });
    this.modified.set(key, this.clock?.now() ?? new Date());
    return { key, url: `${this.baseUrl}/${key}` };
  }

  async get(key: string): Promise<MediaObject | null> {
    return this.objects.get(key) ?? null;
  }

  async delete(key: string): Promise<void> {
    this.objects.delete(key);
    this.modified.delete(key);
  }

  async *list(prefix: string, olderThan: Date): AsyncIterable<ListedMedia> {
    for (const [key, object] of [...this.objects]) {
      const lastModified = this.modified.get(key) ?? new Date(0);
      if (key.startsWith(prefix) && lastModified < olderThan) yield { key, lastModified, size: object.bytes.length };
    }
  }
}
