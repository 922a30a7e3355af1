// A seeded random stream. Math.random cannot be seeded, and a run must be reproducible from `--seed`
// alone (same seed, same visitors, same report), so the simulator carries its own generator.

/** A source of uniform numbers in [0, 1) plus the few distributions the population model needs. */
export interface Random {
  next(): number;
  uniform(min: number, max: number): number;
  /** Exponential with the given mean (inter-arrival times of a Poisson process, think times). */
  exponential(mean: number): number;
  /** Log-normal given its median and the sigma of the underlying normal (patience, session length). */
  logNormal(median: number, sigma: number): number;
  int(maxExclusive: number): number;
  /** An independent stream, so adding a visitor type does not shift every other visitor's draws. */
  fork(label: string): Random;
}

// sfc32: small, fast, passes PractRand far beyond what a simulation of minutes needs; 32-bit ops only.
function sfc32(a: number, b: number, c: number, d: number): () => number {
  return () => {
    a |= 0;
    b |= 0;
    c |= 0;
    d |= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
}

// Seeds are strings so forks can be named; cyrb128-style mixing spreads them over the 128-bit state.
function hashSeed(text: string): [number, number, number, number] {
  let h1 = 1779033703,
    h2 = 3144134277,
    h3 = 1013904242,
    h4 = 2773480762;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  return [(h1 ^ h2 ^ h3 ^ h4) >>> 0, (h2 ^ h1) >>> 0, (h3 ^ h1) >>> 0, (h4 ^ h1) >>> 0];
}

export function createRandom(seed: string): Random {
  const gen = sfc32(...hashSeed(seed));
  // Discard the first outputs: sfc32 starts poorly mixed from a fresh state.
  for (let i = 0; i < 15; i++) gen();
  const random: Random = {
    next: gen,
    uniform: (min, max) => min + (max - min) * gen(),
    exponential: (mean) => -mean * Math.log(1 - gen()),
    logNormal: (median, sigma) => {
      // Box-Muller; 1 - u keeps the logarithm finite.
      const u = 1 - gen();
      const v = gen();
      const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
      return median * Math.exp(sigma * z);
    },
    int: (maxExclusive) => Math.floor(gen() * maxExclusive),
    fork: (label) => createRandom(`${seed}/${label}`),
  };
  return random;
}
