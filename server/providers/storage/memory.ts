/** MediaStorage in memory, for tests. */
import type { MediaSigner } from './presign';
import type { Clock } from '../../core/clock';
import { MediaServedByUs } from './servedByUs';
import {
  InvalidMediaKeyError,
  MediaExistsError,
  isValidMediaKey,
  type ListedMedia,
  type MediaObject,
  type MediaStorage,
  type PutOptions,
  type StoredMedia,
} from './types';

export class MemoryMediaStorage extends MediaServedByUs implements MediaStorage {
  readonly objects = new Map<string, MediaObject>();
  /** When each object was written (tests may move it back). */
  readonly modified = new Map<string, Date>();

  constructor(
    baseUrl = '/media',
    signer?: MediaSigner,
    private readonly clock?: Clock,
  ) {
    super(baseUrl, signer);
  }

  async put(key: string, bytes: Buffer, contentType: string, options: PutOptions = {}): Promise<StoredMedia> {
    if (!isValidMediaKey(key)) throw new InvalidMediaKeyError(key);
    if (options.createOnly && this.objects.has(key)) throw new MediaExistsError(key);
    this.objects.set(key, { bytes: Buffer.from(bytes), contentType });
    this.modified.set(key, this.clock?.now() ?? new Date());
    return { key, url: this.url(key) };
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
