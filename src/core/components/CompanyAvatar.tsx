import { Avatar, type SxProps, type Theme } from '@mui/material';
import { mdiOfficeBuildingOutline } from '@mdi/js';
import { MdiIcon } from './MdiIcon';

interface CompanyAvatarProps {
  name: string;
  logo?: string | null;
  size?: number;
  sx?: SxProps<Theme>;
}

/** A company's logo, or its initial when it has none (a building while it has no name yet). */
export function CompanyAvatar({ name, logo, size = 40, sx }: CompanyAvatarProps) {
  const initial = name.trim().charAt(0).toUpperCase();
  return (
    <Avatar
      variant="rounded"
      src={logo || undefined}
      alt={name}
      sx={[
        { width: size, height: size, fontSize: size * 0.42, fontWeight: 600, bgcolor: 'primary.main', borderRadius: 2 },
        ...(Array.isArray(sx) ? sx : [sx]),
      ]}
    >
      {initial || <MdiIcon path={mdiOfficeBuildingOutline} sx={{ fontSize: size * 0.5 }} />}
    </Avatar>
  );
}
