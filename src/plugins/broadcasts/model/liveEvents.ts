import type { BROADCAST_EVENT } from '../../../../contract/broadcasts';

/**
 * The live events a broadcast's progress arrives as: the contract's (BROADCAST_EVENT) and the
 * engine's progress event. A module of its own, without a value import of contract/broadcasts: the
 * live service is part of the shell, and the contract module (with its zod schemas, which the
 * broadcast pages use) would be placed in the shell's chunk with it (bench/bundle).
 */
const CONTRACT_EVENT: typeof BROADCAST_EVENT = 'broadcast_update';
export const LIVE_EVENTS = [CONTRACT_EVENT, 'broadcast_progress'] as const;
