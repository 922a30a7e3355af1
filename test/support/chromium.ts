// Launches the machine's own Chromium (Debian's package) through playwright-core, which ships no
// browser. Browser suites call this in beforeAll; a missing browser is a failure with the fix,
// never a silent skip, so a green run always means the pages were really checked in a browser.
import { existsSync } from 'node:fs';
import { chromium, type Browser, type LaunchOptions } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

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
  constructor(path: string) {
    super(
      `Chromium not found at ${path}. The browser tests need it: install it with ` +
        `\`sudo apt-get install -y chromium\` (Debian/Ubuntu), or point CHROMIUM_PATH at a Chromium binary.`,
    );
    this.name = 'ChromiumMissingError';
  }
}

/**
 * A headless Chromium with a fresh profile. Playwright insists on owning --user-data-dir: launch()
 * always gives a new temporary profile (`playwright_chromiumdev_profile-*`) and deletes it on close,
 * so no cookie or cache survives between runs. Each `browser.newContext()` is a visitor that shares
 * nothing with the others.
 */
export async function launchBrowser(
  options: Omit<LaunchOptions, 'executablePath'> = {},
  executablePath: string = CHROMIUM_PATH,
): Promise<Browser> {
  if (!existsSync(executablePath)) throw new ChromiumMissingError(executablePath);
  return chromium.launch({
    headless: true,
    ...options,
    executablePath,
    args: [...CHROMIUM_ARGS, ...(options.args ?? [])],
  });
}
