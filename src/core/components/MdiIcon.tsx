import SvgIcon, { type SvgIconProps } from '@mui/material/SvgIcon';
import type { ComponentType } from 'react';

/** An @mdi/js path in a MUI SvgIcon (spec §9: icon set mdi). */
export function MdiIcon({ path, ...props }: SvgIconProps & { path: string }) {
  return (
    <SvgIcon {...props}>
      <path d={path} />
    </SvgIcon>
  );
}

/** A component for an mdi path, for places that take an icon component (menus, resources). */
export function mdiIconComponent(path: string): ComponentType<SvgIconProps> {
  const Icon = (props: SvgIconProps) => <MdiIcon path={path} {...props} />;
  Icon.displayName = 'MdiIcon';
  return Icon;
}
