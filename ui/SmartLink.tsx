import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { BOOKING_LINK_ATTRIBUTE, FULL_LOAD_ATTRIBUTE } from './page/page-markers.ts';
import { useSite } from './page/site-context.tsx';
import { resolveLinkTarget } from './link-target.ts';
import { visuallyHidden } from './styles.ts';

type SmartLinkProps = {
  href: string;
  fullPageLoad?: boolean | undefined;
  className?: string;
  children: ReactNode;
  onClick?: () => void;
  'aria-current'?: 'page' | undefined;
};

/** Every link from content goes through here, so booking and external links always open safely in a new tab. */
export function SmartLink({ href, fullPageLoad, children, ...rest }: SmartLinkProps) {
  const site = useSite();
  const target = resolveLinkTarget(href, site.bookingUrl, fullPageLoad);
  switch (target.kind) {
    case 'internal':
      return (
        <Link to={target.to} {...rest}>
          {children}
        </Link>
      );
    case 'new-tab':
      return (
        // The booking link is marked so the page's analytics beacon can count clicks on it.
        <a
          href={target.href}
          target="_blank"
          rel="noopener noreferrer"
          {...(target.booking ? { [BOOKING_LINK_ATTRIBUTE]: '' } : {})}
          {...rest}
        >
          {children}
          <span css={visuallyHidden}> (opens in a new tab)</span>
        </a>
      );
    case 'document':
      return (
        <a href={target.href} {...{ [FULL_LOAD_ATTRIBUTE]: '' }} {...rest}>
          {children}
        </a>
      );
    default:
      return (
        <a href={target.href} {...rest}>
          {children}
        </a>
      );
  }
}
