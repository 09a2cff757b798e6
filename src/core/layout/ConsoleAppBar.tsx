import { AppBar, LoadingIndicator, TitlePortal, ToggleThemeButton, useLocales, useThemesContext, type AppBarProps } from 'react-admin';
import { useTranslation } from 'react-i18next';
import { permissionApiRef } from '../apis';
import { useAccount } from '../account/useAccount';
import { useApi } from '../di/ApiProvider';
import { useConsole } from '../plugins/ConsoleContext';
import { CompanySwitcher } from './CompanySwitcher';
import { LanguageMenuButton } from './LanguageMenuButton';
import { ConsoleUserMenu } from './ConsoleUserMenu';
import { HideOnScroll } from './HideOnScroll';

/** The plugins' app bar items the user may view (e.g. the chats plugin's notification bell). */
function PluginAppBarItems() {
  const { appBarItems } = useConsole();
  const permissions = useApi(permissionApiRef);
  useAccount(); // permissions follow the selected company
  return (
    <>
      {appBarItems
        .filter((item) => !item.area || permissions.canView(item.area))
        .map(({ id, component: Item }) => (
          <Item key={id} />
        ))}
    </>
  );
}

/**
 * react-admin's toolbar (language menu, theme toggle, loading) with a name on its spinner: react-admin's
 * LoadingIndicator shows an unnamed progressbar while any query reloads, which axe reports as serious
 * (aria-progressbar-name); it hands its other props to that spinner.
 */
function ConsoleToolbar() {
  const { t } = useTranslation();
  const locales = useLocales();
  const { darkTheme } = useThemesContext();
  return (
    <>
      {locales && locales.length > 1 ? <LanguageMenuButton /> : null}
      {darkTheme && <ToggleThemeButton />}
      <LoadingIndicator aria-label={t('core.loading')} />
    </>
  );
}

/**
 * App bar: company switcher, title, then react-admin's toolbar (language menu, theme toggle, loading), the plugins'
 * items and the user menu. It hides on scroll through our HideOnScroll (no layout forced when it mounts).
 */
export function ConsoleAppBar(props: AppBarProps) {
  return (
    <AppBar color="primary" container={HideOnScroll} {...props} toolbar={<ConsoleToolbar />} userMenu={<ConsoleUserMenu />}>
      <CompanySwitcher />
      <TitlePortal />
      <PluginAppBarItems />
    </AppBar>
  );
}
