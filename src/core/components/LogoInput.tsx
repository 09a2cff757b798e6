import { useRef, useState, type ChangeEvent } from 'react';
import { Box, Button, Stack, Typography } from '@mui/material';
import { mdiImageOutline, mdiTrashCanOutline } from '@mdi/js';
import { useInput } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { CompanyAvatar } from './CompanyAvatar';
import { readLogoFile } from './readLogoFile';
import { MdiIcon } from './MdiIcon';
import { visuallyHidden } from './visuallyHidden';

interface LogoInputProps {
  /** Form field holding the logo as a data URL (or null). */
  source?: string;
  /** Form field holding the company name, for the initial shown while there is no logo. */
  nameSource?: string;
}

/** Optional company logo: an image file read as a data URL (max 100 KB), with a preview. */
export function LogoInput({ source = 'logo', nameSource = 'name' }: LogoInputProps) {
  const { t } = useTranslation();
  const { field } = useInput({ source, defaultValue: null });
  const companyName = (useWatch({ name: nameSource }) as string | undefined) ?? '';
  const [problem, setProblem] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  const onFileChosen = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const result = await readLogoFile(file);
    if (result.ok) {
      setProblem(null);
      field.onChange(result.dataUrl);
    } else {
      setProblem(t(result.reason === 'tooLarge' ? 'core.logo.tooLarge' : 'core.logo.notImage'));
    }
  };

  return (
    <Box sx={{ mb: 2 }}>
      <Typography variant="subtitle2" sx={{ mb: 1 }}>
        {t('core.logo.label')}
      </Typography>
      <Stack direction="row" spacing={2} alignItems="center">
        <CompanyAvatar name={companyName} logo={field.value as string | null} size={64} />
        <Box>
          <Stack direction="row" spacing={1}>
            {/* One control for the keyboard: the button opens the hidden file input (a button wrapping the input would nest two). */}
            <Button
              variant="outlined"
              size="small"
              startIcon={<MdiIcon path={mdiImageOutline} />}
              onClick={() => fileInput.current?.click()}
            >
              {t(field.value ? 'core.logo.change' : 'core.logo.upload')}
            </Button>
            <Box
              component="input"
              ref={fileInput}
              type="file"
              accept="image/*"
              tabIndex={-1}
              aria-label={t('core.logo.label')}
              onChange={onFileChosen}
              sx={visuallyHidden}
            />
            {field.value ? (
              <Button
                size="small"
                color="inherit"
                startIcon={<MdiIcon path={mdiTrashCanOutline} />}
                onClick={() => field.onChange(null)}
              >
                {t('core.logo.remove')}
              </Button>
            ) : null}
          </Stack>
          <Typography variant="caption" color={problem ? 'error' : 'text.secondary'} role={problem ? 'alert' : undefined} sx={{ display: 'block', mt: 0.75 }}>
            {problem ?? t('core.logo.hint')}
          </Typography>
        </Box>
      </Stack>
    </Box>
  );
}
