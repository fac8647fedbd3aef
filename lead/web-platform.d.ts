// The few web-platform globals the lead domain uses, which every runtime it runs in provides (the
// browser and Node alike): URL parsing. Declared here, not taken from the DOM or Node type
// libraries, so nothing else of either can be used in lead/ without a compile error.

interface URLSearchParams {
  get(name: string): string | null;
}

interface URL {
  readonly href: string;
  readonly origin: string;
  readonly searchParams: URLSearchParams;
}

declare const URL: {
  prototype: URL;
  new (url: string, base?: string): URL;
  canParse(url: string, base?: string): boolean;
};
