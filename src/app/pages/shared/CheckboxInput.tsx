import { Checkbox, FormControlLabel, FormHelperText, Box } from '@mui/material';
import { useInput } from 'react-admin';

interface CheckboxInputProps {
  source: string;
  label: string;
  helperText?: string;
  defaultValue?: boolean;
}

/** A labelled checkbox bound to a react-admin form field. */
export function CheckboxInput({ source, label, helperText, defaultValue = false }: CheckboxInputProps) {
  const { field } = useInput({ source, defaultValue });
  return (
    <Box sx={{ mb: 2 }}>
      <FormControlLabel
        control={
          <Checkbox
            checked={Boolean(field.value)}
            onChange={(event) => field.onChange(event.target.checked)}
            onBlur={field.onBlur}
            name={field.name}
          />
        }
        label={label}
      />
      {helperText && <FormHelperText sx={{ mt: -0.5, ml: 4 }}>{helperText}</FormHelperText>}
    </Box>
  );
}
