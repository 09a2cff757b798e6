/**
 * What every storage whose files this server serves itself at GET /media/<key> has in common (the local
 * disk, and the in-memory double tests use in its place): upload URLs and private read URLs are signed
 * by our MediaSigner, public files are plain paths under the base URL.
 */
import type { MediaSigner } from './presign';
import { isPrivateMediaKey } from './privateMedia';
import { InvalidMediaKeyError, isValidMediaKey, keyUnderBase, type PresignUploadInput, type PresignedUploadTarget } from './types';

export abstract class MediaServedByUs {
  /**
   * @param baseUrl URL prefix the files are served under (`/media` on the API's origin)
   * @param signer signs upload URLs for PUT /media/upload/<key> and private read URLs; without one,
   *   presignUpload fails and private objects get their plain (unserved) URL
   */
  protected constructor(
    protected readonly baseUrl: string,
    protected readonly signer?: MediaSigner,
  ) {}

  async presignUpload(input: PresignUploadInput): Promise<PresignedUploadTarget> {
    if (!isValidMediaKey(input.key)) throw new InvalidMediaKeyError(input.key);
    if (!this.signer) throw new Error('presigned uploads are not configured');
    return this.signer.sign(input);
  }

  url(key: string): string {
    return `${this.baseUrl}/${key}`;
  }

  readUrl(key: string): string {
    return isPrivateMediaKey(key) && this.signer ? `${this.url(key)}?${this.signer.readQuery(key)}` : this.url(key);
  }

  keyOfUrl(url: string): string | null {
    return keyUnderBase(url, [this.baseUrl, this.signer && `${this.signer.publicUrl}${this.signer.mediaPath}`]);
  }
}
