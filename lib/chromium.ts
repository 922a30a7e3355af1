// Finds a Chromium and launches it through playwright-core, which ships no browser. A system Chromium
// wins (CHROMIUM_PATH, then the usual install locations); without one, the Chromium that the npm
// devDependency @sparticuz/chromium carries (Linux x64, brotli-packed in the package) is unpacked once
// into node_modules/.cache and used. Browser suites call launchBrowser() in beforeAll; a machine with
// neither is a failure that says what to install, never a silent skip, so a green run always means
// the pages were really checked in a browser.
// The packaged Chromium sees only the fonts its fontconfig file names: the package's Open Sans (Latin,
// Greek, Cyrillic, Hebrew, Vietnamese) and the Noto fonts of PACKAGED_FONTS, so Arabic, Persian, Chinese,
// Japanese, Korean, Thai and Hindi pages show real glyphs, as a phone shows them, not blanks.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { chromium, type Browser, type LaunchOptions } from 'playwright-core';
import { repoRoot } from './paths.js';

/** Where a system Chromium usually lives (Debian, Ubuntu, Fedora, Arch, macOS). */
export const SYSTEM_CHROMIUM_PATHS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
];

export interface FoundChromium {
  path: string;
  /** Extra environment the browser needs (the packaged one's fonts). */
  env: Record<string, string>;
  source: 'CHROMIUM_PATH' | 'system' | '@sparticuz/chromium';
}

/**
 * npm packages (devDependencies) whose TTF or OTF files the packaged Chromium gets, each with its font
 * folders relative to its entry point: Noto Naskh Arabic (Arabic and Persian, 0.3 MB), Noto Sans Hans
 * (Simplified Chinese, whose kana and traditional characters cover every string of ja-JP and zh-TW
 * too, 42 MB), Noto Sans KR (Korean, 32 MB), and Noto Sans Thai and Noto Sans Devanagari (Hindi) in
 * their regular and bold weights (0.5 MB of their packages' 4.7 MB).
 */
const PACKAGED_FONTS: readonly { name: string; dirs: readonly string[] }[] = [
  { name: '@embedpdf/fonts-arabic', dirs: ['../fonts'] },
  { name: '@embedpdf/fonts-sc', dirs: ['../fonts'] },
  { name: '@embedpdf/fonts-kr', dirs: ['../fonts'] },
  { name: '@expo-google-fonts/noto-sans-thai', dirs: ['400Regular', '700Bold'] },
  { name: '@expo-google-fonts/noto-sans-devanagari', dirs: ['400Regular', '700Bold'] },
];

/** The folders of PACKAGED_FONTS' font files. */
function packagedFontDirs(): string[] {
  const require = createRequire(import.meta.url);
  return PACKAGED_FONTS.flatMap(({ name, dirs }) => dirs.map((d) => path.join(path.dirname(require.resolve(name)), d)));
}

/** The fontconfig file of the packaged browser unpacked in `dir`: its own fonts and PACKAGED_FONTS'. */
function packagedFontsConf(dir: string, fontDirs: readonly string[] = packagedFontDirs()): string {
  const dirs = [path.join(dir, 'fonts'), ...fontDirs].map((d) => `<dir>${d}</dir>`).join('');
  return `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>${dirs}<cachedir>${dir}/fonts-cache</cachedir></fontconfig>\n`;
}

/** The packaged browser is for Linux x64 only. */
const packagedFits = (): boolean => process.platform === 'linux' && process.arch === 'x64';

/**
 * The package's version. It exports no package.json, and its entry point sits at a depth that changes
 * between releases (build/index.js, build/cjs/index.cjs): walk up from it to the package's own manifest.
 */
async function packagedVersion(): Promise<string> {
  let dir = path.dirname(createRequire(import.meta.url).resolve('@sparticuz/chromium'));
  for (;;) {
    const manifest = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8').catch(() => '{}')) as {
      name?: string;
      version?: string;
    };
    if (manifest.name === '@sparticuz/chromium' && manifest.version !== undefined) return manifest.version;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('cannot find the package.json of @sparticuz/chromium');
    dir = parent;
  }
}

/**
 * Unpacks @sparticuz/chromium's browser into node_modules/.cache once. The package unpacks into the
 * temporary directory; here that is a private staging directory, renamed into place when complete, so
 * test workers that start together never see a half-written browser.
 */
async function packagedChromium(): Promise<FoundChromium> {
  const version = await packagedVersion();
  const parent = path.join(repoRoot, 'node_modules', '.cache', 'waiting-room-chromium');
  const dir = path.join(parent, version);
  const fontsConf = path.join(dir, 'fonts.conf');
  const found = async (): Promise<FoundChromium> => {
    await writeFontsConf(dir, fontsConf);
    return { path: path.join(dir, 'chromium'), env: { FONTCONFIG_FILE: fontsConf }, source: '@sparticuz/chromium' };
  };
  // A browser unpacked by an earlier run (its fonts.conf is written last): only the fonts may have changed.
  if (existsSync(fontsConf)) return found();
  await mkdir(parent, { recursive: true });
  const staging = await mkdtemp(path.join(parent, 'unpacking-'));
  const savedTmp = process.env.TMPDIR;
  try {
    process.env.TMPDIR = staging;
    const { default: packaged } = await import('@sparticuz/chromium');
    await packaged.executablePath();
  } finally {
    if (savedTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmp;
  }
  // The package's own fonts.conf names /tmp/fonts; this one names where the fonts really are.
  await writeFile(path.join(staging, 'fonts.conf'), packagedFontsConf(dir));
  try {
    await rename(staging, dir);
  } catch (error) {
    // Another worker finished first: use its copy.
    await rm(staging, { recursive: true, force: true });
    if (!existsSync(fontsConf)) throw error;
  }
  return found();
}

/**
 * Rewrites the fonts.conf of an unpacked browser when PACKAGED_FONTS changed since it was written (or
 * node_modules moved): through a file of its own and a rename, so a worker launching meanwhile reads
 * the old file or the new one, whole.
 */
async function writeFontsConf(dir: string, fontsConf: string): Promise<void> {
  const want = packagedFontsConf(dir);
  if ((await readFile(fontsConf, 'utf8').catch(() => '')) === want) return;
  const next = `${fontsConf}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  await writeFile(next, want);
  await rename(next, fontsConf);
}

/** CHROMIUM_PATH, else a system Chromium, else the packaged one; null when none can be had here. */
export async function findChromium(
  env: NodeJS.ProcessEnv = process.env,
  systemPaths: readonly string[] = SYSTEM_CHROMIUM_PATHS,
): Promise<FoundChromium | null> {
  if (env.CHROMIUM_PATH) return { path: env.CHROMIUM_PATH, env: {}, source: 'CHROMIUM_PATH' };
  const system = systemPaths.find((p) => existsSync(p));
  if (system !== undefined) return { path: system, env: {}, source: 'system' };
  if (!packagedFits()) return null;
  return packagedChromium();
}

/**
 * Flags for this machine: no sandbox (containers lack user namespaces), no GPU, and nothing that
 * phones home (no network beyond the test's own servers here, and those calls would only add noise).
 */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export class ChromiumMissingError extends Error {
  constructor(path: string | null) {
    super(
      (path === null
        ? `No Chromium found: CHROMIUM_PATH is unset, none is installed in ${SYSTEM_CHROMIUM_PATHS.join(', ')}, and the ` +
          `packaged one (@sparticuz/chromium) runs only on Linux x64 (this is ${process.platform} ${process.arch}). `
        : `Chromium not found at ${path}. `) +
        'The browser tests need one: install Chromium or Google Chrome (Debian/Ubuntu: `sudo apt-get install -y chromium`), ' +
        'or point CHROMIUM_PATH at a Chromium binary.',
    );
    this.name = 'ChromiumMissingError';
  }
}

/**
 * A headless Chromium with a fresh profile. Playwright insists on owning --user-data-dir: launch()
 * always gives a new temporary profile (`playwright_chromiumdev_profile-*`) and deletes it on close,
 * so no cookie or cache survives between runs. Each `browser.newContext()` is a visitor that shares
 * nothing with the others. `executablePath` skips the search (a test of the missing-browser message).
 */
export async function launchBrowser(
  options: Omit<LaunchOptions, 'executablePath'> = {},
  executablePath?: string,
): Promise<Browser> {
  const found =
    executablePath === undefined
      ? await findChromium()
      : { path: executablePath, env: {}, source: 'CHROMIUM_PATH' as const };
  if (found === null) throw new ChromiumMissingError(null);
  if (!existsSync(found.path)) throw new ChromiumMissingError(found.path);
  return chromium.launch({
    headless: true,
    ...options,
    executablePath: found.path,
    env: {
      ...(process.env as Record<string, string>),
      ...found.env,
      ...(options.env as Record<string, string> | undefined),
    },
    args: [...CHROMIUM_ARGS, ...(options.args ?? [])],
  });
}
