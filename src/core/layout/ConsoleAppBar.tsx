import { AppBar, TitlePortal, type AppBarProps } from 'react-admin';
import { CompanySwitcher } from './CompanySwitcher';
import { ConsoleUserMenu } from './ConsoleUserMenu';

/** App bar: company switcher, title, then react-admin's toolbar (language menu, theme toggle, loading) and the user menu. */
export function ConsoleAppBar(props: AppBarProps) {
  return (
    <AppBar color="primary" {...props} userMenu={<ConsoleUserMenu />}>
      <CompanySwitcher />
      <TitlePortal />
    </AppBar>
  );
}
