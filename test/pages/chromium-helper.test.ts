import { describe, expect, it } from 'vitest';
import { ChromiumMissingError, launchBrowser } from '../support/chromium.js';

describe('the Chromium launch helper', () => {
  it('fails, saying how to install Chromium, when the browser is missing (browser suites never skip silently)', async () => {
    const error = await launchBrowser({}, '/nonexistent/chromium').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChromiumMissingError);
    expect((error as Error).message).toContain('/nonexistent/chromium');
    expect((error as Error).message).toContain('apt-get install -y chromium');
  });

  it('starts a browser whose contexts do not share cookies', async () => {
    const browser = await launchBrowser();
    try {
      const a = await browser.newContext();
      const b = await browser.newContext();
      await a.addCookies([{ name: 'waiting_room', value: 'x', url: 'https://shop.test/' }]);
      expect(await b.cookies('https://shop.test/')).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
