/**
 * The app bar's own buttons, as react-admin draws them (the same icons, names, class names and translations: `ra.*`),
 * with the console's tooltip. react-admin's use MUI's Tooltip, which re-renders synchronously inside the commit that
 * mounts it and so pulls all of that commit's effects into the layout's first long task on a phone (ConsoleTooltip,
 * bench/bundle, issue #26).
 */
import { CircularProgress, IconButton, useMediaQuery, useTheme as useMuiTheme, type Theme } from '@mui/material';
import { styled } from '@mui/material/styles';
import { mdiBrightness4, mdiBrightness7, mdiMenu, mdiRefresh } from '@mdi/js';
import { useLoading, useRefresh, useSidebarState, useTheme, useThemesContext, useTranslate } from 'react-admin';
import { ConsoleTooltip } from '../components/ConsoleTooltip';
import { MdiIcon } from '../components/MdiIcon';

/** Opens and closes the side menu (react-admin's SidebarToggleButton). */
export function SidebarToggleButton({ className }: { className?: string }) {
  const translate = useTranslate();
  const [open, setOpen] = useSidebarState();
  return (
    <ConsoleTooltip className={className} title={translate(open ? 'ra.action.close_menu' : 'ra.action.open_menu', { _: 'Open/Close menu' })} enterDelay={500}>
      <ToggleIconButton color="inherit" onClick={() => setOpen(!open)}>
        <MdiIcon path={mdiMenu} className={open ? 'RaSidebarToggleButton-menuButtonIconOpen' : 'RaSidebarToggleButton-menuButtonIconClosed'} />
      </ToggleIconButton>
    </ConsoleTooltip>
  );
}

const ToggleIconButton = styled(IconButton, { name: 'RaSidebarToggleButton' })(({ theme }) => {
  const turn = (deg: number) => ({
    transition: theme.transitions.create(['transform'], { easing: theme.transitions.easing.sharp, duration: theme.transitions.duration.leavingScreen }),
    transform: `rotate(${deg}deg)`,
  });
  return { '& .RaSidebarToggleButton-menuButtonIconClosed': turn(0), '& .RaSidebarToggleButton-menuButtonIconOpen': turn(180) };
});

/** Switches between the light and dark themes (react-admin's ToggleThemeButton). */
export function ThemeToggleButton() {
  const translate = useTranslate();
  const { darkTheme, defaultTheme } = useThemesContext();
  const prefersDark = useMediaQuery('(prefers-color-scheme: dark)', { noSsr: true });
  const [theme, setTheme] = useTheme(defaultTheme || (prefersDark && darkTheme ? 'dark' : 'light'));
  const title = translate('ra.action.toggle_theme', { _: 'Toggle Theme' });
  return (
    <ConsoleTooltip title={title} enterDelay={300}>
      <IconButton color="inherit" onClick={() => setTheme(theme === 'dark' ? 'light' : 'dark')} aria-label={title}>
        <MdiIcon path={theme === 'dark' ? mdiBrightness7 : mdiBrightness4} />
      </IconButton>
    </ConsoleTooltip>
  );
}

/**
 * The refresh button, and a named spinner over it while any query loads (react-admin's LoadingIndicator: its
 * spinner had no name, which axe reports as serious, aria-progressbar-name).
 */
export function LoadingIndicator({ 'aria-label': label }: { 'aria-label': string }) {
  const translate = useTranslate();
  const refresh = useRefresh();
  const loading = useLoading();
  const theme = useMuiTheme<Theme>();
  const title = translate('ra.action.refresh', { _: 'Refresh' });
  return (
    <LoadingRoot className="RaLoadingIndicator-root">
      <ConsoleTooltip title={title}>
        <IconButton
          aria-label={title}
          className={`RaLoadingIndicator-loadedIcon${loading ? ' RaLoadingIndicator-loadedLoading' : ''}`}
          color="inherit"
          onClick={(event) => {
            event.preventDefault();
            refresh();
          }}
        >
          <MdiIcon path={mdiRefresh} />
        </IconButton>
      </ConsoleTooltip>
      {loading && <CircularProgress className="app-loader RaLoadingIndicator-loader" color="inherit" size={theme.spacing(2)} thickness={6} aria-label={label} />}
    </LoadingRoot>
  );
}

const LoadingRoot = styled('div', { name: 'RaLoadingIndicator' })({
  position: 'relative',
  '& .RaLoadingIndicator-loadedIcon.RaLoadingIndicator-loadedLoading': { opacity: 0 },
  '& .RaLoadingIndicator-loader': { position: 'absolute', top: '30%', left: '30%' },
});
