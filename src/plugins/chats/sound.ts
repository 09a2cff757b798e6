/**
 * Issue #22: a short sound when a customer writes in a conversation assigned to me, off by default, chosen per
 * browser (like the desktop notifications). Two soft tones made with the Web Audio API: no sound file to load,
 * and nothing plays until the agent has turned it on (browsers only start audio after a user gesture anyway).
 */
import { useCallback, useState } from 'react';

export const SOUND_KEY = 'chats.sound';

export function soundEnabled(): boolean {
  try {
    return localStorage.getItem(SOUND_KEY) === 'on';
  } catch {
    return false;
  }
}

export function useSoundSetting(): { on: boolean; toggle: () => void } {
  const [on, setOn] = useState(soundEnabled);
  const toggle = useCallback(() => {
    setOn((was) => {
      const next = !was;
      try {
        localStorage.setItem(SOUND_KEY, next ? 'on' : 'off');
      } catch {
        /* private mode: the choice lasts for this page */
      }
      if (next) playNewMessageSound(); // what it sounds like, and the user gesture browsers want first
      return next;
    });
  }, []);
  return { on, toggle };
}

let context: AudioContext | null = null;

/** Two short sine tones (a rising "ding"), quiet. Silently nothing where Web Audio is missing or refused. */
export function playNewMessageSound(): void {
  try {
    const Ctx = (window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext) as typeof AudioContext | undefined;
    if (!Ctx) return;
    context ??= new Ctx();
    const ctx = context;
    if (ctx.state === 'suspended') void ctx.resume();
    const start = ctx.currentTime;
    [880, 1320].forEach((frequency, i) => {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = 'sine';
      osc.frequency.value = frequency;
      const at = start + i * 0.11;
      gain.gain.setValueAtTime(0, at);
      gain.gain.linearRampToValueAtTime(0.12, at + 0.015);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.1);
      osc.connect(gain).connect(ctx.destination);
      osc.start(at);
      osc.stop(at + 0.11);
    });
  } catch {
    /* no audio: the other alerts remain */
  }
}
