/** Logos are stored as data URLs and may be at most 100 KB. */
export const MAX_LOGO_BYTES = 100 * 1024;

export type LogoFileResult = { ok: true; dataUrl: string } | { ok: false; reason: 'notImage' | 'tooLarge' };

/** Checks an image file the user chose and reads it as a data URL. */
export function readLogoFile(file: File): Promise<LogoFileResult> {
  if (!file.type.startsWith('image/')) return Promise.resolve({ ok: false, reason: 'notImage' });
  if (file.size > MAX_LOGO_BYTES) return Promise.resolve({ ok: false, reason: 'tooLarge' });
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve({ ok: true, dataUrl: String(reader.result) });
    reader.onerror = () => reject(reader.error ?? new Error('Could not read the file'));
    reader.readAsDataURL(file);
  });
}
