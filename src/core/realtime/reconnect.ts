/** Spec §9: the socket reconnects after 1, 2, 5, then every 10 s. */
export function reconnectAfterMs(tries: number): number {
  return [1000, 2000, 5000][tries - 1] ?? 10_000;
}
