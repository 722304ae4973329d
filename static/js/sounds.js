// Optional sounds, generated with WebAudio (no files): your turn, a card played, a trick taken.
// Off unless the header's Sound box is ticked (localStorage kozyr.sound = on).

const KEY = 'kozyr.sound';
let audio = null;

export function soundOn() { return localStorage.getItem(KEY) === 'on'; }
export function setSound(on) { localStorage.setItem(KEY, on ? 'on' : 'off'); }

function tone(freq, start, length, volume, type = 'sine', slideTo = null) {
  const o = audio.createOscillator();
  const g = audio.createGain();
  const t0 = audio.currentTime + start;
  o.type = type;
  o.frequency.setValueAtTime(freq, t0);
  if (slideTo) o.frequency.exponentialRampToValueAtTime(slideTo, t0 + length);
  g.gain.setValueAtTime(0.0001, t0);
  g.gain.exponentialRampToValueAtTime(volume, t0 + 0.01);
  g.gain.exponentialRampToValueAtTime(0.0001, t0 + length);
  o.connect(g).connect(audio.destination);
  o.start(t0);
  o.stop(t0 + length + 0.02);
}

const SOUNDS = {
  turn: () => { tone(660, 0, 0.18, 0.06); tone(880, 0.14, 0.25, 0.05); },
  card: () => tone(320, 0, 0.06, 0.05, 'triangle', 180),
  trick: () => tone(520, 0, 0.22, 0.04, 'sine', 260),
};

export function play(name, force = false) {
  if (!force && !soundOn()) return;
  try {
    audio = audio || new AudioContext();
    (SOUNDS[name] || SOUNDS.turn)();
  } catch { /* no audio: fine */ }
}
