// Site-wide content (site.yaml plus public build settings) for every block, without prop drilling.
import { createContext, useContext, type ReactNode } from 'react';
import type { SiteContent } from '../../generated/content-types.ts';

export type SiteData = SiteContent & {
  siteUrl: string;
  leadEndpoint: string;
  /** Routes whose pages may show the booking page inside them (content-model/booking-frame.ts); none when absent. */
  bookingFrameRoutes?: readonly string[] | undefined;
};

const SiteContext = createContext<SiteData | null>(null);

export function SiteProvider({ site, children }: { site: SiteData; children: ReactNode }) {
  return <SiteContext.Provider value={site}>{children}</SiteContext.Provider>;
}

export function useSite(): SiteData {
  const site = useContext(SiteContext);
  if (!site) throw new Error('useSite() needs a <SiteProvider> above it');
  return site;
}
