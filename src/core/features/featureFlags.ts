import type { FeatureFlags } from '../apis';

/** Spec §4: one list of enabled keys, unset at first and set once at start-up. */
export function createFeatureFlags(): FeatureFlags {
  let enabled: Set<string> | null = null;
  return {
    setEnabled(keys) {
      if (enabled) throw new Error('Feature flags are already set; they are set once at start-up.');
      enabled = new Set(keys);
    },
    isEnabled(key, defaultValue = false) {
      return enabled ? enabled.has(key) : defaultValue;
    },
  };
}

/** Whether a route/menu/resource feature requirement holds (`not` inverts it). */
export function featureSatisfied(
  flags: FeatureFlags,
  requirement: { key: string; default?: boolean; not?: boolean } | undefined,
): boolean {
  if (!requirement) return true;
  const on = flags.isEnabled(requirement.key, requirement.default ?? false);
  return requirement.not ? !on : on;
}
