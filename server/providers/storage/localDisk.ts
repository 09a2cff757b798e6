/**
 * MediaStorage on the local disk (DATA_DIR/media), served read-only at GET /media/<key> (private
 * keys only with a signed query, routes.ts).
 */
import { constants } from 'node:fs';
import { access, copyFile, link, mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { MediaSigner } from './presign';
import { MediaServedByUs } from './servedByUs';
import {
  InvalidMediaKeyError,
  MediaExistsError,
  contentTypeOfKey,
  extensionFor,
  isValidMediaKey,
  type ListedMedia,
  type MediaObject,
  type MediaStorage,
  type PutOptions,
  type StoredMedia,
} from './types';

export class LocalDiskMediaStorage extends MediaServedByUs implements MediaStorage {
  /**
   * @param root directory the files live in
   * @param baseUrl, signer see MediaServedByUs
   */
  constructor(
    private readonly root: string,
    baseUrl = '/media',
    signer?: MediaSigner,
  ) {
    super(baseUrl, signer);
  }

  private file(key: string): string {
    if (!isValidMediaKey(key)) throw new InvalidMediaKeyError(key);
    const file = path.resolve(this.root, ...key.split('/'));
    // Belt and braces: the key pattern already rules out leaving the root.
    if (!file.startsWith(path.resolve(this.root) + path.sep)) throw new InvalidMediaKeyError(key);
    return file;
  }

  async put(key: string, bytes: Buffer, contentType: string, options: PutOptions = {}): Promise<StoredMedia> {
    const file = this.file(key);
    if (extensionFor(contentType) !== key.slice(key.lastIndexOf('.') + 1)) {
      throw new Error(`content type ${contentType} does not match the key ${key}`);
    }
    await mkdir(path.dirname(file), { recursive: true });
    // Written to a temporary file first, so a reader never sees half a file.
    const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    await writeFile(temp, bytes, { mode: 0o644 });
    if (!options.createOnly) {
      await rename(temp, file);
      return { key, url: this.url(key) };
    }
    // Create-only: link(2) fails with EEXIST when the name is taken, atomically (like open's `wx`
    // flag), and publishes the complete file at once, which `wx` on the final name would not.
    try {
      await link(temp, file).catch((err: NodeJS.ErrnoException) => {
        // A file system without hard links: an exclusive copy (O_EXCL, `wx`) is still create-only.
        if (err.code === 'EPERM' || err.code === 'ENOTSUP' || err.code === 'ENOSYS') return copyFile(temp, file, constants.COPYFILE_EXCL);
        throw err;
      });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new MediaExistsError(key);
      throw err;
    } finally {
      await rm(temp, { force: true });
    }
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

  /** The folder exists (made on first use, as put does) and this process may read and write it. */
  async check(): Promise<void> {
    await mkdir(this.root, { recursive: true });
    await access(this.root, constants.R_OK | constants.W_OK);
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
