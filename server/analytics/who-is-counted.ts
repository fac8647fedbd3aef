// Who is not counted: a visitor whose browser asks not to be tracked (`DNT: 1`) or sends the Global
// Privacy Control signal (`Sec-GPC: 1`), and the robots that fetch pages (search engines, link
// previews, monitors, headless browsers, command-line tools), which are not people reading the site.

/** Words in a browser string that only robots and tools send. Checked without regard to case. */
const ROBOT_WORDS =
  /(?<!cu)bot\b|bot\/|crawl|spider|slurp|scrape|fetcher|preview|monitor|uptime|headless|phantomjs|lighthouse|pagespeed|gtmetrix|pingdom|facebookexternalhit|embedly|quora link|whatsapp|telegram|discord|skype|bitly|curl\/|wget\/|python-requests|python-urllib|aiohttp|httpx|go-http-client|java\/|okhttp|axios\/|node-fetch|undici|libwww|http_request|postman|insomnia|feedfetcher|\brss\b|validator|check_http|nagios|zabbix|datadog|newrelic|apachebench|k6\/|wrk\/|autocannon/i;

/** A browser string no person's browser sends: empty, too short to be a browser, or a robot's. */
export function isRobot(userAgent: string | undefined): boolean {
  const text = userAgent?.trim() ?? '';
  if (text.length < 20 || !/^Mozilla\/|^Opera\//.test(text)) return true;
  return ROBOT_WORDS.test(text);
}

/** The visitor asked not to be tracked (Do Not Track) or sent Global Privacy Control. */
export function optedOut(headers: Record<string, string | string[] | undefined>): boolean {
  const first = (name: string) => {
    const value = headers[name];
    return (Array.isArray(value) ? value[0] : value)?.trim();
  };
  return first('dnt') === '1' || first('sec-gpc') === '1';
}
