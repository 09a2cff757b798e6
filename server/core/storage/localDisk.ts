/** MediaStorage on the local disk (DATA_DIR/media), served read-only at GET /media/<key>. */
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { UploadSigner } from './presign';
import {
  InvalidMediaKeyError,
  contentTypeOfKey,
  extensionFor,
  isValidMediaKey,
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
}
