import { useRef, useState } from 'react';
import { Button, CircularProgress } from '@mui/material';
import { mdiCameraOutline } from '@mdi/js';
import { useRefresh } from 'react-admin';
import { useTranslation } from 'react-i18next';
import { authApiRef, errorText, httpApiRef, MdiIcon, useAlert, useApi } from '../../core';
import { AVATAR_TYPES, readAvatarFile } from './readAvatarFile';

/** "Change my avatar": reads an image (≤ 1 MB) as a data URL → POST /api/profiles/; the list and the app bar show it. */
export function ChangeAvatarButton() {
  const { t } = useTranslation();
  const http = useApi(httpApiRef);
  const auth = useApi(authApiRef);
  const alert = useAlert();
  const refresh = useRefresh();
  const input = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    const read = await readAvatarFile(file);
    if (!read.ok) {
      alert.error(t(read.reason === 'tooLarge' ? 'team.avatar.tooLarge' : 'team.avatar.notImage'));
      return;
    }
    setUploading(true);
    try {
      await http.post('/api/profiles/', { avatar: read.dataUrl });
      alert.success(t('team.avatar.updated'));
      refresh();
      auth.loadUser().catch(() => undefined);
    } catch (e) {
      alert.error(errorText(e));
    } finally {
      setUploading(false);
      if (input.current) input.current.value = '';
    }
  };

  return (
    <>
      <input
        ref={input}
        type="file"
        accept={AVATAR_TYPES.join(',')}
        hidden
        data-testid="avatar-file"
        aria-label={t('team.avatar.change')}
        onChange={(e) => void onFile(e.target.files?.[0])}
      />
      <Button
        variant="outlined"
        onClick={() => input.current?.click()}
        disabled={uploading}
        startIcon={uploading ? <CircularProgress size={16} color="inherit" aria-hidden /> : <MdiIcon path={mdiCameraOutline} />}
        sx={{ fontWeight: 600 }}
      >
        {t('team.avatar.change')}
      </Button>
    </>
  );
}
