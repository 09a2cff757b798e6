import { SvgIcon, type SvgIconProps } from '@mui/material';

/** Renders an icon of the mdi set (spec §9: "Icon set mdi") from its @mdi/js path. */
export function MdiIcon({ path, ...props }: SvgIconProps & { path: string }) {
  return (
    <SvgIcon {...props}>
      <path d={path} />
    </SvgIcon>
  );
}
