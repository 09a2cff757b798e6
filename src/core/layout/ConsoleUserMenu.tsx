import { forwardRef } from 'react';
import { ListItemIcon, ListItemText, MenuItem } from '@mui/material';
import { mdiAccountCircleOutline, mdiLogout } from '@mdi/js';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { UserMenu, useLogout, useUserMenu } from 'react-admin';
import { MdiIcon } from '../components/MdiIcon';

const AccountItem = forwardRef<HTMLLIElement>(function AccountItem(props, ref) {
  const navigate = useNavigate();
  const { t } = useTranslation();
  const userMenu = useUserMenu();
  return (
    <MenuItem
      ref={ref}
      {...props}
      onClick={() => {
        userMenu?.onClose();
        navigate('/account');
      }}
    >
      <ListItemIcon>
        <MdiIcon path={mdiAccountCircleOutline} fontSize="small" />
      </ListItemIcon>
      <ListItemText>{t('core.appBar.account')}</ListItemText>
    </MenuItem>
  );
});

const SignOutItem = forwardRef<HTMLLIElement>(function SignOutItem(props, ref) {
  const logout = useLogout();
  const { t } = useTranslation();
  const userMenu = useUserMenu();
  return (
    <MenuItem
      ref={ref}
      {...props}
      onClick={() => {
        userMenu?.onClose();
        void logout();
      }}
    >
      <ListItemIcon>
        <MdiIcon path={mdiLogout} fontSize="small" />
      </ListItemIcon>
      <ListItemText>{t('core.appBar.signOut')}</ListItemText>
    </MenuItem>
  );
});

/** User menu: Account and Sign out. */
export function ConsoleUserMenu() {
  return (
    <UserMenu>
      <AccountItem />
      <SignOutItem />
    </UserMenu>
  );
}
