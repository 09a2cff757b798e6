import type { BroadcastDraft } from '../model/draft';

export interface StepProps {
  draft: BroadcastDraft;
  update: (patch: Partial<BroadcastDraft>) => void;
}
