import { forwardRef, useCallback, useMemo, useState, type MouseEvent } from 'react';
import { Avatar, Box, Button, IconButton, ListItemIcon, ListItemText, Menu, MenuItem, useMediaQuery, type Theme } from '@mui/material';
import { mdiAccountCircle, mdiAccountCircleOutline, mdiLogout } from '@mdi/js';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { UserMenuContextProvider, useLogout, useTranslate, useUserMenu } from 'react-admin';
import { useAccount } from '../account/useAccount';
import { userFullName } from '../account/userName';
import { ConsoleTooltip } from '../components/ConsoleTooltip';
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

/**
 * User menu: Account and Sign out. react-admin's UserMenu drawn the same way (the user's name on a wide screen, an
 * icon named `ra.auth.user_menu` on a phone, the menu under it), with the console's tooltip (AppBarButtons.tsx).
 */
export function ConsoleUserMenu() {
  const translate = useTranslate();
  // The account store's user, what react-admin's getIdentity answers (authProvider.ts), read without react-admin's
  // query: its answer re-rendered the menu synchronously while the console loaded (useSyncExternalStore).
  const { user } = useAccount();
  const fullName = user ? userFullName(user) : '';
  const wide = useMediaQuery((theme: Theme) => theme.breakpoints.up('sm'));
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const onClose = useCallback(() => setAnchor(null), []);
  const context = useMemo(() => ({ onClose }), [onClose]);
  const label = translate('ra.auth.user_menu', { _: 'Profile' });
  const open = (event: MouseEvent<HTMLElement>) => setAnchor(event.currentTarget);
  const avatar = user?.profile_avatar_url ? <Avatar src={user.profile_avatar_url} alt={fullName} sx={{ width: 24, height: 24 }} /> : null;
  return (
    <Box className="RaUserMenu-root">
      {wide && fullName ? (
        <Button aria-label={label} color="inherit" onClick={open} variant="text" startIcon={avatar ?? <MdiIcon path={mdiAccountCircle} />} sx={{ ml: 0.5 }}>
          {fullName}
        </Button>
      ) : (
        <ConsoleTooltip title={label}>
          <IconButton aria-label={label} aria-owns={anchor ? 'menu-appbar' : undefined} aria-haspopup color="inherit" onClick={open}>
            {avatar ?? <MdiIcon path={mdiAccountCircle} />}
          </IconButton>
        </ConsoleTooltip>
      )}
      <UserMenuContextProvider value={context}>
        <Menu
          id="menu-appbar"
          disableScrollLock
          anchorEl={anchor}
          anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
          transformOrigin={{ vertical: 'top', horizontal: 'right' }}
          open={Boolean(anchor)}
          onClose={onClose}
        >
          <AccountItem />
          <SignOutItem />
        </Menu>
      </UserMenuContextProvider>
    </Box>
  );
}
