import { describe, expect, it } from 'vitest';
import { ChromiumMissingError, findChromium, launchBrowser } from '../../lib/chromium.js';

describe('the Chromium launch helper', () => {
  it('fails, saying how to install Chromium, when the browser is missing (browser suites never skip silently)', async () => {
    const error = await launchBrowser({}, '/nonexistent/chromium').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChromiumMissingError);
    expect((error as Error).message).toContain('/nonexistent/chromium');
    expect((error as Error).message).toContain('apt-get install -y chromium');
  });

  it('prefers CHROMIUM_PATH, then a system Chromium, and otherwise unpacks the packaged one (Linux x64)', async () => {
    expect(await findChromium({ CHROMIUM_PATH: '/opt/my/chrome' }, ['/bin/sh'])).toMatchObject({ path: '/opt/my/chrome', source: 'CHROMIUM_PATH' });
    expect(await findChromium({}, ['/nonexistent', '/bin/sh'])).toMatchObject({ path: '/bin/sh', source: 'system' });
    const packaged = await findChromium({}, ['/nonexistent']);
    if (process.platform === 'linux' && process.arch === 'x64') {
      expect(packaged).toMatchObject({ source: '@sparticuz/chromium' });
      expect(packaged!.path).toMatch(/node_modules\/\.cache\/waiting-room-chromium\/[\d.]+\/chromium$/);
    } else {
      expect(packaged).toBeNull();
    }
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
