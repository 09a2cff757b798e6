import { AppBar, TitlePortal, type AppBarProps } from 'react-admin';
import { permissionApiRef } from '../apis';
import { useAccount } from '../account/useAccount';
import { useApi } from '../di/ApiProvider';
import { useConsole } from '../plugins/ConsoleContext';
import { CompanySwitcher } from './CompanySwitcher';
import { ConsoleUserMenu } from './ConsoleUserMenu';

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

/** App bar: company switcher, title, then react-admin's toolbar (language menu, theme toggle, loading), the plugins' items and the user menu. */
export function ConsoleAppBar(props: AppBarProps) {
  return (
    <AppBar color="primary" {...props} userMenu={<ConsoleUserMenu />}>
      <CompanySwitcher />
      <TitlePortal />
      <PluginAppBarItems />
    </AppBar>
  );
}
