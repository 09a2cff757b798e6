import { Suspense } from 'react';
import { AppBar, Toolbar } from '@mui/material';
import { TitlePortal, useLocales, useThemesContext } from 'react-admin';
import { useTranslation } from 'react-i18next';
import { permissionApiRef } from '../apis';
import { useAccount } from '../account/useAccount';
import { useApi } from '../di/ApiProvider';
import { useConsole } from '../plugins/ConsoleContext';
import { CompanySwitcher } from './CompanySwitcher';
import { LanguageMenuButton } from './LanguageMenuButton';
import { useIsPhone } from './useIsPhone';
import { ConsoleUserMenu } from './ConsoleUserMenu';
import { HideOnScroll } from './HideOnScroll';
import { LoadingIndicator, SidebarToggleButton, ThemeToggleButton } from './AppBarButtons';

/**
 * The plugins' app bar items the user may view (e.g. the chats plugin's notification bell). A lazy item shows nothing
 * until its code is there (the shell fetches it before its first render: core's warmRoute), and never suspends the bar.
 */
function PluginAppBarItems() {
  const { appBarItems } = useConsole();
  const permissions = useApi(permissionApiRef);
  useAccount(); // permissions follow the selected company
  return (
    <>
      {appBarItems
        .filter((item) => !item.area || permissions.canView(item.area))
        .map(({ id, component: Item }) => (
          <Suspense key={id} fallback={null}>
            <Item />
          </Suspense>
        ))}
    </>
  );
}

/** The toolbar's end: language menu, theme toggle, refresh button with its named spinner. */
function ConsoleToolbar() {
  const { t } = useTranslation();
  const locales = useLocales();
  const { darkTheme } = useThemesContext();
  return (
    <>
      {locales && locales.length > 1 ? <LanguageMenuButton /> : null}
      {darkTheme && <ThemeToggleButton />}
      <LoadingIndicator aria-label={t('core.loading')} />
    </>
  );
}

/**
 * App bar: the side menu's button, company switcher, title, toolbar (language menu, theme toggle, refresh), the
 * plugins' items and the user menu; it hides on scroll through our HideOnScroll (no layout forced when it mounts).
 * react-admin's AppBar drawn the same way (its class names, dense on a wide screen) with the console's own buttons
 * (AppBarButtons.tsx: their tooltips do not re-render inside the commit).
 */
export function ConsoleAppBar({ className }: { className?: string }) {
  const phone = useIsPhone();
  return (
    <HideOnScroll className={className}>
      <AppBar
        className="RaAppBar-appBar"
        color="primary"
        sx={(theme) => ({
          '& .RaAppBar-toolbar': { px: 1, [theme.breakpoints.down('md')]: { minHeight: theme.spacing(6) } },
          '& .RaAppBar-menuButton': { mr: '0.2em' },
        })}
      >
        <Toolbar disableGutters variant={phone ? 'regular' : 'dense'} className="RaAppBar-toolbar">
          <SidebarToggleButton className="RaAppBar-menuButton" />
          <CompanySwitcher />
          <TitlePortal />
          <PluginAppBarItems />
          <ConsoleToolbar />
          <ConsoleUserMenu />
        </Toolbar>
      </AppBar>
    </HideOnScroll>
  );
}
