/** MediaStorage on the local disk (DATA_DIR/media), served read-only at GET /media/<key>. */
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { UploadSigner } from './presign';
import {
  InvalidMediaKeyError,
  contentTypeOfKey,
  extensionFor,
  isValidMediaKey,
  type ListedMedia,
  type MediaObject,
  type MediaStorage,
  type PresignUploadInput,
  type PresignedUploadTarget,
  type StoredMedia,
} from './types';

export class LocalDiskMediaStorage implements MediaStorage {
  /**
   * @param root directory the files live in
   * @param baseUrl URL prefix they are served under (`/media` on the API's origin)
   * @param signer signs upload URLs for PUT /media/upload/<key>; without one, presignUpload fails
   */
  constructor(
    private readonly root: string,
    private readonly baseUrl = '/media',
    private readonly signer?: UploadSigner,
  ) {}

  async presignUpload(input: PresignUploadInput): Promise<PresignedUploadTarget> {
    if (!isValidMediaKey(input.key)) throw new InvalidMediaKeyError(input.key);
    if (!this.signer) throw new Error('presigned uploads are not configured');
    return this.signer.sign(input);
  }

  private file(key: string): string {
    if (!isValidMediaKey(key)) throw new InvalidMediaKeyError(key);
    const file = path.resolve(this.root, ...key.split('/'));
    // Belt and braces: the key pattern already rules out leaving the root.
    if (!file.startsWith(path.resolve(this.root) + path.sep)) throw new InvalidMediaKeyError(key);
    return file;
  }

  url(key: string): string {
    return `${this.baseUrl}/${key}`;
  }

  async put(key: string, bytes: Buffer, contentType: string): Promise<StoredMedia> {
    const file = this.file(key);
    if (extensionFor(contentType) !== key.slice(key.lastIndexOf('.') + 1)) {
      throw new Error(`content type ${contentType} does not match the key ${key}`);
    }
    await mkdir(path.dirname(file), { recursive: true });
    // Write then rename, so a reader never sees half a file.
    const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    await writeFile(temp, bytes, { mode: 0o644 });
    await rename(temp, file);
    return { key, url: this.url(key) };
  }

  async get(key: string): Promise<MediaObject | null> {
    if (!isValidMediaKey(key)) return null;
    try {
      return { bytes: await readFile(this.file(key)), contentType: contentTypeOfKey(key) };
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    if (!isValidMediaKey(key)) return;
    await rm(this.file(key), { force: true });
  }

  /** Walks the directory of `prefix`; the modification time is the upload time (files are never rewritten). */
  list(prefix: string, olderThan: Date): AsyncIterable<ListedMedia> {
    // Keys never leave the root; neither may a listing.
    if (!/^(?:[a-z0-9_-][a-z0-9._-]*\/)*[a-z0-9._-]*$/.test(prefix) || prefix.includes('..')) throw new InvalidMediaKeyError(prefix);
    return this.walk(prefix.slice(0, prefix.lastIndexOf('/') + 1), prefix, olderThan);
  }

  private async *walk(dir: string, prefix: string, olderThan: Date): AsyncGenerator<ListedMedia> {
    let entries;
    try {
      entries = await readdir(path.join(this.root, ...dir.split('/').filter(Boolean)), { withFileTypes: true });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return;
      throw err;
    }
    for (const entry of entries) {
      const key = `${dir}${entry.name}`;
      if (entry.isDirectory()) {
        if (`${key}/`.startsWith(prefix) || prefix.startsWith(`${key}/`)) yield* this.walk(`${key}/`, prefix, olderThan);
      } else if (entry.isFile() && key.startsWith(prefix) && isValidMediaKey(key)) {
        const info = await stat(this.file(key)).catch(() => null);
        if (info && info.mtime < olderThan) yield { key, lastModified: info.mtime, size: info.size };
      }
    }
  }
}
