/** Spec: the avatar is sent as an image data URL of at most 1 MB (contract ProfileAvatarBody). */
export const MAX_AVATAR_BYTES = 1024 * 1024;
export const AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

export type AvatarFileResult = { ok: true; dataUrl: string } | { ok: false; reason: 'notImage' | 'tooLarge' };

/** Checks the chosen image (type, size) and reads it as a data URL. */
export function readAvatarFile(file: File): Promise<AvatarFileResult> {
  if (!AVATAR_TYPES.includes(file.type)) return Promise.resolve({ ok: false, reason: 'notImage' });
  if (file.size > MAX_AVATAR_BYTES) return Promise.resolve({ ok: false, reason: 'tooLarge' });
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve({ ok: true, dataUrl: String(reader.result) });
    reader.onerror = () => reject(reader.error ?? new Error('Could not read the file'));
    reader.readAsDataURL(file);
  });
}
