// The staged fastly.toml publish runs on: the repository's own, with only its build step changed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'smol-toml';
import { repoRoot } from '../../lib/paths.js';
import { stagedManifest } from '../../rehearse/index.js';

const text = readFileSync(join(repoRoot, 'fastly.toml'), 'utf8');

describe('the staged fastly.toml', () => {
  it('keeps every table of the repository manifest and copies the built module in as its build', () => {
    const staged = parse(stagedManifest(text, '/work/x/bin/main.wasm')) as Record<string, unknown>;
    const original = parse(text) as Record<string, unknown>;
    expect(staged.scripts).toEqual({ build: "mkdir -p bin && cp '/work/x/bin/main.wasm' bin/main.wasm" });
    expect({ ...staged, scripts: null }).toEqual({ ...original, scripts: null });
  });

  it('refuses a manifest without a build line, and a module path a quote would break', () => {
    expect(() => stagedManifest('name = "x"\n', '/w/main.wasm')).toThrow(/no \[scripts\] build line/);
    expect(() => stagedManifest(text, "/it's/main.wasm")).toThrow(/holds a quote/);
  });
});
