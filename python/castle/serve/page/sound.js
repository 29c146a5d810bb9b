// Short tones made in the page with WebAudio: no audio files.

let context = null;
let enabled = true;

export function setSound(on) {
  enabled = on;
}

export function soundOn() {
  return enabled;
}

function tone(frequency, duration, { type = "sine", volume = 0.08, delay = 0 } = {}) {
  if (!enabled) return;
  try {
    context ??= new AudioContext();
    if (context.state === "suspended") context.resume();
    const start = context.currentTime + delay;
    const osc = context.createOscillator();
    const gain = context.createGain();
    osc.type = type;
    osc.frequency.setValueAtTime(frequency, start);
    gain.gain.setValueAtTime(volume, start);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + duration);
    osc.connect(gain).connect(context.destination);
    osc.start(start);
    osc.stop(start + duration + 0.02);
  } catch {
    // No sound where the browser has no audio: the game goes on.
  }
}

export const sounds = {
  move: () => tone(520, 0.07, { type: "triangle" }),
  up: () => tone(780, 0.09, { type: "triangle" }),
  refused: () => tone(150, 0.16, { type: "square", volume: 0.04 }),
  deal: () => {
    for (let i = 0; i < 6; i++) tone(300 + i * 40, 0.04, { type: "triangle", delay: i * 0.05 });
  },
  win: () => {
    [523, 659, 784, 1047].forEach((f, i) => tone(f, 0.22, { delay: i * 0.14 }));
  },
};
