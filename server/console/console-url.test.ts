import { describe, expect, it } from 'vitest';
import { consoleAreaOf, rewriteConsoleUrl } from './console-url.ts';

describe('rewriteConsoleUrl', () => {
  it.each([
    ['/console/api/leads', '/console/api/leads'],
    ['/Console/API/leads', '/console/api/leads'],
    ['/console//api/leads', '/console/api/leads'],
    ['//console/api/leads', '/console/api/leads'],
    ['/console/%61pi/leads', '/console/api/leads'],
    ['/%63onsole/api/leads', '/console/api/leads'],
    ['/console/api/./leads', '/console/api/leads'],
    ['/console\\api\\leads', '/console/api/leads'],
    ['/console/x/../api/leads', '/console/api/leads'],
    ['/x/../console/api/leads', '/console/api/leads'],
    ['/console/api/leads/', '/console/api/leads'],
    ['/console/api/leads?state=failed&q=a%40b.example', '/console/api/leads?state=failed&q=a%40b.example'],
    ['/console', '/console'],
    ['/CONSOLE/', '/console'],
  ])('%s reaches the router as %s', (url, routed) => expect(rewriteConsoleUrl(url)).toBe(routed));

  it('keeps the case of what follows the prefix: addresses and ids are data', () => {
    expect(rewriteConsoleUrl('/console/api/accounts/Ana%40Example.com')).toBe('/console/api/accounts/Ana%40Example.com');
    expect(rewriteConsoleUrl('/console/api/LEADS')).toBe('/console/api/LEADS');
  });

  it('never decodes twice: %2561 stays the text %61', () => {
    expect(rewriteConsoleUrl('/console/%2561pi/leads')).toBe('/console/%2561pi/leads');
  });

  it('sends a console-looking path that resolves elsewhere to where it resolves', () => {
    expect(rewriteConsoleUrl('/console/../about')).toBe('/about');
    expect(rewriteConsoleUrl('/console/api/../../about')).toBe('/about');
  });

  it.each(['/about/', '/about/index.html', '/blog//x', '/consoles', '/api/leads', '/%E0%A4%A'])('leaves the site path %s as sent', (url) =>
    expect(rewriteConsoleUrl(url)).toBe(url),
  );
});

describe('consoleAreaOf', () => {
  it.each([
    ['/console/api/leads', 'api'],
    ['/Console/API/%ZZ', 'api'],
    ['/%63onsole/%61pi/%ZZ', 'api'],
    ['/console\\api\\%ZZ', 'api'],
    ['/x/../console/api?q=%ZZ', 'api'],
    ['/console', 'app'],
    ['/console/%ZZ', 'app'],
    ['/CONSOLE/apis', 'app'],
    ['/consoles/api', undefined],
    ['/console/../about', undefined],
    ['/%ZZ', undefined],
    ['/about?next=/console', undefined],
  ] as const)('%s is %s', (url, area) => expect(consoleAreaOf(url)).toBe(area));
});
