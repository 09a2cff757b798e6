import { useState, type MouseEvent } from 'react';
import { Box, Button, Menu, MenuItem, type Theme } from '@mui/material';
import LanguageIcon from '@mui/icons-material/Translate';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { useLocaleState, useLocales } from 'react-admin';
import { useTranslation } from 'react-i18next';

/**
 * The top bar's language menu. Unlike react-admin's LocalesMenuButton, its label is the language the console
 * is shown in, not the one just asked for: react-admin stores the choice at once, then loads the opened plugins'
 * strings in that language and re-mounts the whole app. With the stored choice as its label the button said
 * "Français" while the page was still English, and a click on it in that moment opened a menu the re-mount then
 * closed. Here the label changes with the page, in the same render.
 *
 * On a phone it shows its icon only: the name stays in the button (its accessible name) and in the menu.
 */
export function LanguageMenuButton() {
  const { i18n } = useTranslation();
  const languages = useLocales();
  const [, setLocale] = useLocaleState();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const shown = i18n.resolvedLanguage ?? i18n.language;
  const nameOf = (locale: string) => languages.find((l) => l.locale === locale)?.name ?? '';

  const choose = (locale: string) => () => {
    setAnchor(null);
    setLocale(locale);
  };

  return (
    <Box component="span" sx={compactOnPhone}>
      <Button
        color="inherit"
        variant="text"
        aria-controls={anchor ? 'language-menu' : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        aria-haspopup="true"
        onClick={(event: MouseEvent<HTMLElement>) => setAnchor(event.currentTarget)}
        startIcon={<LanguageIcon />}
        endIcon={<ExpandMoreIcon fontSize="small" />}
      >
        {nameOf(shown)}
      </Button>
      {/* Mounted only while open: a closed menu kept mounted cost every load a portal, a modal and their re-render. */}
      <Menu id="language-menu" anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {languages.map((language) => (
          <MenuItem key={language.locale} onClick={choose(language.locale)} selected={language.locale === shown}>
            {language.name}
          </MenuItem>
        ))}
      </Menu>
    </Box>
  );
}

/**
 * At 390 px the top bar holds the menu, the company, the bell, the language, the theme, refresh and the profile;
 * the language's name (128 px) pushed the profile past the right edge.
 */
const compactOnPhone = (theme: Theme) => ({
  [theme.breakpoints.down('sm')]: {
    '& .MuiButton-root': { fontSize: 0, minWidth: 0, paddingLeft: '8px', paddingRight: '8px' },
    '& .MuiButton-startIcon': { margin: 0 },
    '& .MuiButton-endIcon': { display: 'none' },
  },
});
