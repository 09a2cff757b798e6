import { featureFlagsApiRef } from '../apis';
import { useApi } from '../di/ApiProvider';

/** Whether a feature key is enabled (the caller's default while the list is unset). */
export function useFeature(key: string, defaultValue = false): boolean {
  return useApi(featureFlagsApiRef).isEnabled(key, defaultValue);
}
