import { SvgIcon, type SvgIconProps } from '@mui/material';

/** An icon of the mdi set (spec §9) from its @mdi/js path. */
export function MdiIcon({ path, ...props }: SvgIconProps & { path: string }) {
  return (
    <SvgIcon {...props}>
      <path d={path} />
    </SvgIcon>
  );
}
